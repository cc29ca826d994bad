import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Catalog, FlowEvent } from '@repocod/pipeline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CurateSession } from './curate-session.js';
import { PROJECT_ROOT } from './project-root.js';
import { demoFixture, openDemoCatalog } from './testing/demo-fixture.js';

let catalog: Catalog;
let session: CurateSession;

beforeAll(async () => {
  catalog = await openDemoCatalog();
  const out = join(mkdtempSync(join(tmpdir(), 'repocod-session-')), 'release');
  cpSync(demoFixture().releaseFolder, out, { recursive: true });
  session = new CurateSession(catalog, {
    projectRoot: PROJECT_ROOT,
    stateRoot: process.env.REPOCOD_STATE ?? '',
    catalogPath: catalog.path,
    sources: [],
    workers: 2,
    repeat: 3,
    narrow: false,
    version: null,
    out,
    keep: [],
    push: null,
  });
});

afterAll(async () => {
  await catalog.close();
});

describe('CurateSession.notice', () => {
  it('reports a notice as a problem of the stage running now, and drops one when no flow runs', {
    timeout: 120_000,
  }, async () => {
    const events: FlowEvent[] = [];
    session.notice('before any flow');
    const result = await session.run(['demo'], ['select'], (event) => {
      events.push(event);
      // What the distributed executor does while a stage waits for workers.
      if (event.kind === 'stage-start')
        session.notice('no worker is connected to redis://queue:6379: the jobs wait on the queue');
    });
    session.notice('after the flow');
    expect(result.ok).toBe(true);
    const notices = events.filter((event) => event.kind === 'stage-problem' && /worker|flow/.test(event.message));
    expect(notices).toEqual([
      {
        kind: 'stage-problem',
        stage: 'select',
        repository: null,
        message: 'no worker is connected to redis://queue:6379: the jobs wait on the queue',
      },
    ]);
    // In order: after the stage's start, before its end.
    const at = events.findIndex((event) => event.kind === 'stage-problem' && event.message.startsWith('no worker'));
    expect(events.findIndex((event) => event.kind === 'stage-start')).toBeLessThan(at);
    expect(events.findIndex((event) => event.kind === 'stage-done')).toBeGreaterThan(at);
  });
});
