import { cpSync, existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { render } from 'ink-testing-library';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Catalog } from '@repocod/pipeline';
import { CurateSession } from '../curate-session.js';
import { App } from './app.js';
import { demoFixture, openDemoCatalog } from '../testing/demo-fixture.js';
import { frameLines, KEY, overlong, press, tick } from '../testing/ink-test-support.js';

const PROJECT_ROOT = fileURLToPath(new URL('../../../..', import.meta.url));
const SIZE = { width: 100, height: 30 };

let catalog: Catalog;
let session: CurateSession;
let out: string;

beforeAll(async () => {
  catalog = await openDemoCatalog();
  // A copy of the release the fixture's flow wrote (version 1.0): the app adds 1.1 beside it.
  out = join(mkdtempSync(join(tmpdir(), 'repocod-app-')), 'release');
  cpSync(demoFixture().releaseFolder, out, { recursive: true });
  session = new CurateSession(catalog, {
    projectRoot: PROJECT_ROOT,
    // The fixture's own state folder: this is the one test file that runs stages in it.
    stateRoot: demoFixture().stateRoot,
    catalogPath: catalog.path,
    sources: [],
    workers: 2,
    repeat: 3,
    narrow: false,
    version: null,
    out,
    keep: [],
    push: null,
    evaluations: join(out, '..', 'evaluations'),
  });
});

afterAll(async () => {
  await catalog.close();
});

// Generous: two test files run at once, and a flow's stages may take a while on a busy machine.
async function waitFor(read: () => string, pattern: RegExp, milliseconds = 120_000): Promise<string> {
  const until = Date.now() + milliseconds;
  while (Date.now() < until) {
    const text = read();
    if (pattern.test(text)) {
      // Ink attaches a screen's key handler in an effect after the frame is drawn: let it run before
      // the next key, as a person's reaction time does.
      await tick(100);
      return text;
    }
    await tick(100);
  }
  throw new Error(`timed out waiting for ${String(pattern)}; the screen shows:\n${read()}`);
}

describe('the curator TUI on the demo catalog', () => {
  it('opens on the sources with what is done, and goes through every screen with the keys', {
    timeout: 120_000,
  }, async () => {
    const status = await session.status();
    const app = render(
      <App session={session} initialStatus={status} requested={[]} size={{ width: 80, height: 24 }} />,
    );
    const screen = (): string => frameLines(app.lastFrame()).join('\n');
    try {
      await tick();
      expect(screen()).toMatch(/1 sources/);
      expect(screen()).toMatch(/\[x\] demo/);
      // The demo row: 278 functions, 52 candidates, 52 of 52 mined with tests, 52 tasks.
      expect(screen()).toMatch(/demo\s+\S+\s+✓\s+✓\s+278\s+52\s+52\/52\s+52/);
      expect(screen()).toMatch(/selection 88dec5275c810c14: 52 task\(s\)/);
      expect(screen()).toMatch(/51 passed, 1 failed/);
      expect(screen()).toMatch(/release .*1\.0 \(51\)/);
      expect(overlong(app.lastFrame(), 80)).toEqual([]);

      await press(app.stdin, '2');
      expect(screen()).toMatch(/in the catalog: 52 functions mined, 52 with relevant tests/);
      expect(screen()).toMatch(/in the catalog: 51 passed, 1 failed/);

      await press(app.stdin, '3');
      await waitFor(screen, /demo-inventory/);
      await press(app.stdin, KEY.enter);
      await waitFor(screen, /FAIL_TO_PASS/);
      await press(app.stdin, KEY.escape);
      await waitFor(screen, /3 tasks/);

      await press(app.stdin, '4');
      await waitFor(screen, /util\.ensure_non_negative/);

      await press(app.stdin, '5');
      await waitFor(screen, /51 of the 52 task\(s\) of selection 88dec5275c810c14/);
      expect(screen()).toMatch(/version 1\.1/);
      expect(screen()).toMatch(/1\.1\/test-00000-of-00001\.parquet/);
      expect(overlong(app.lastFrame(), 80)).toEqual([]);
    } finally {
      app.unmount();
    }
  });

  it('carries on from the catalog with r, then publishes the confirmed version', { timeout: 300_000 }, async () => {
    const status = await session.status();
    const app = render(
      <App session={session} initialStatus={status} requested={[]} size={{ width: 100, height: 30 }} />,
    );
    const screen = (): string => frameLines(app.lastFrame()).join('\n');
    try {
      await press(app.stdin, '2', 'r');
      // Everything is in the catalog: the flow runs through in seconds and hands over to publish.
      await waitFor(screen, /y writes this release/);
      await press(app.stdin, '2');
      expect(screen()).toMatch(/done \(/);
      expect(screen()).toMatch(/Lite-first: 52 of 52 candidates mined \(0 now\), 52 with relevant tests/);
      // Each key once the screen it is meant for shows: on a busy machine a burst outruns Ink's handlers.
      await press(app.stdin, '5');
      await waitFor(screen, /^version 1\.1/m);
      await press(app.stdin, 'e');
      await waitFor(screen, /Enter to keep, Esc to cancel/);
      await press(app.stdin, KEY.backspace, KEY.backspace, KEY.backspace, '2', '.', '0');
      await waitFor(screen, /^version 2\.0▏/m);
      await press(app.stdin, KEY.enter);
      await waitFor(screen, /^version 2\.0$/m);
      await waitFor(screen, /2\.0\/test-00000-of-00001\.parquet/);
      await press(app.stdin, 'y');
      await waitFor(screen, /version 2\.0 written to/);
      expect(existsSync(join(out, '2.0/test-00000-of-00001.parquet'))).toBe(true);
      // The next version is proposed at once.
      await waitFor(screen, /version 2\.1/);
    } finally {
      app.unmount();
    }
  });

  it('asks before quitting while the flow runs, and quits at once otherwise', { timeout: 300_000 }, async () => {
    const status = await session.status();
    const app = render(
      <App session={session} initialStatus={status} requested={[]} size={{ width: 80, height: 24 }} />,
    );
    const screen = (): string => frameLines(app.lastFrame()).join('\n');
    await press(app.stdin, '2', 'r');
    // q asks only once the flow shows as running: on a busy machine that frame can take a moment.
    await waitFor(screen, /^running /m);
    await press(app.stdin, 'q');
    await waitFor(screen, /quit now\? what finished is kept in the catalog \(y\/n\)/);
    await press(app.stdin, 'n');
    expect(screen()).not.toMatch(/quit now\?/);
    await waitFor(screen, /y writes this release/);
    await press(app.stdin, 'q');
    await tick();
    // Quitting unmounts the app: nothing answers keys any more.
    const last = screen();
    await press(app.stdin, '1');
    expect(screen()).toBe(last);
  });
  it('evaluates the release with the gold patches on the evaluate screen, and opens a log', {
    timeout: 300_000,
  }, async () => {
    const app = render(
      <App session={session} initialStatus={await session.status()} requested={['demo']} size={SIZE} />,
    );
    const screen = (): string => frameLines(app.lastFrame()).join('\n');
    await press(app.stdin, '6');
    await waitFor(screen, /p: a predictions file to evaluate; g: the gold patches/);
    expect(screen()).toContain(`release ${out}`);
    await press(app.stdin, 'g');
    const done = await waitFor(screen, /pass@1 100\.0%: \d+ of \d+ resolved/, 240_000);
    const [, resolved, total] = /(\d+)\/(\d+) · (\d+) resolved/.exec(done) ?? [];
    expect(resolved).toBe(total);
    expect(done).toMatch(/^resolved +demo-inventory\.\S+ +gold +\d+ of \d+ tests pass/m);
    expect(overlong(app.lastFrame(), SIZE.width)).toEqual([]);
    await press(app.stdin, KEY.enter);
    const log = await waitFor(screen, /"outcome": "resolved"/);
    expect(log).toMatch(/· gold · resolved/);
    await press(app.stdin, KEY.escape);
    await waitFor(screen, /^resolved /m);
    app.unmount();
  });
});
