import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Catalog } from '@repocod/catalog';
import { REPOCOD_LITE_SPEC } from '@repocod/tasks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTasksCommand } from '../commands/tasks.js';
import { runValidateCommand } from '../commands/validate.js';
import { readRebuildRecords } from '../records/rebuild-record-files.js';
import { publishStep } from '../steps/publish.js';
import { selectStep } from '../steps/select.js';
import { type DemoReleaseDiff, dateDemoByReleaseDiff } from '../testing/dated-demo.js';
import { openMinedDemo } from '../testing/mined-demo.js';
import { NotChangedSinceError } from './release-freshness.js';

// The demo stands in for a source without history (as scikit-learn's sdist does): its bodies are dated by release
// diff against an older sdist of it, in which slugify's body had another line and quote's was the same.
const PROJECT_ROOT = resolve(new URL('../../../..', import.meta.url).pathname);
const state = mkdtempSync(join(tmpdir(), 'repocod-release-diff-freshness-'));
const options = { projectRoot: PROJECT_ROOT, stateRoot: state, workers: 2 };
const release = join(state, 'release');
const SLUGIFY = 'demo-inventory.util.slugify';
const QUOTE = 'demo-inventory.pricing.quote';
const WRITTEN = '2024-11-20T08:00:00Z';
const REWRITTEN = '2025-07-01T12:30:00Z';
const CUTOFF = '2025-01-01T00:00:00Z';
const filter = (names: readonly string[]): string => `qualname IN (${names.map((name) => `'${name}'`).join(', ')})`;
let catalog: Catalog;
let baseCommit: string;
let diff: DemoReleaseDiff;

beforeAll(async () => {
  catalog = await openMinedDemo(state);
  await runTasksCommand(catalog, { ...options, repository: 'demo' });
  baseCommit = (await catalog.tasks('demo'))[0]?.baseCommit as string;
  diff = await dateDemoByReleaseDiff(catalog, state, {
    baseCommit,
    qualnames: ['slugify', 'quote'],
    writtenAt: WRITTEN,
    rewrittenAt: REWRITTEN,
    rewritten: {
      file: 'inventory/util.py',
      now: '    words = re.split(r"[\\W_]+", without_marks.lower())',
      before: '    words = re.split(r"\\W+", without_marks.lower())',
    },
  });
}, 900_000);

afterAll(async () => {
  await catalog?.close();
});

describe('a fresh version of a source dated by release diff', () => {
  it("dates a body changed since the older release at the newer, and one as it was at the older's", () => {
    expect(diff.dated.release).toMatchObject({ version: '1.0', releasedAt: REWRITTEN, sha256: null });
    expect(diff.dated.against).toMatchObject({ version: '0.9', releasedAt: WRITTEN });
    const commits = diff.rows.map((row) => [row.bodyCommit, row.bodyChangedAt?.toISOString()]).sort();
    expect(commits).toEqual([
      ['release-diff:..0.9', '2024-11-20T08:00:00.000Z'],
      ['release-diff:0.9..1.0', '2025-07-01T12:30:00.000Z'],
    ]);
  });

  it('refuses to publish a task whose body is as it was in the older release', { timeout: 600_000 }, async () => {
    const { selectionId } = await selectStep(catalog, { ...REPOCOD_LITE_SPEC, filter: filter(['slugify', 'quote']) });
    await runValidateCommand(catalog, { ...options, selectionId });
    const refused = await publishStep(catalog, {
      out: release,
      version: '1.9',
      selectionId,
      changedSince: CUTOFF,
    }).catch((thrown: unknown) => thrown);
    expect(refused).toBeInstanceOf(NotChangedSinceError);
    expect((refused as NotChangedSinceError).tasks).toEqual([{ instanceId: QUOTE, bodyChangedAt: WRITTEN }]);
  });

  it('says dated_by release-diff, both versions, in tasks.jsonl, freshness.json, the card, the record', async () => {
    // The tasks stage itself, as `repocod tasks demo --changed-since CUTOFF --dated-against demo=…0.9.tar.gz` runs it:
    // only the bodies changed since 0.9 stay tasks, so that the record, which takes every task, is a fresh one.
    const datedAgainst = new Map([['demo', diff.dated]]);
    await runTasksCommand(catalog, { ...options, repository: 'demo', changedSince: CUTOFF, datedAgainst });
    expect((await catalog.tasks('demo')).map((task) => task.instanceId)).toEqual([SLUGIFY]);
    const { selectionId } = await selectStep(catalog, { ...REPOCOD_LITE_SPEC, filter: filter(['slugify']) });
    await runValidateCommand(catalog, { ...options, selectionId });
    await publishStep(catalog, { out: release, version: '2.0', selectionId, changedSince: CUTOFF });
    const sha256 = diff.dated.against.sha256;
    const releaseDiff = {
      version: '1.0',
      released_at: REWRITTEN,
      against_version: '0.9',
      against_released_at: WRITTEN,
      against_sha256: sha256,
    };
    const [line] = readFileSync(join(release, '2.0', 'tasks.jsonl'), 'utf8').split('\n');
    expect(JSON.parse(line ?? '{}')).toMatchObject({
      instance_id: SLUGIFY,
      body_commit: 'release-diff:0.9..1.0',
      body_changed_at: REWRITTEN,
    });
    const record = JSON.parse(readFileSync(join(release, '2.0', 'freshness.json'), 'utf8'));
    expect(record).toMatchObject({
      changed_since: CUTOFF,
      dated_by: 'release-diff',
      repositories: [
        {
          repository: 'demo',
          base_commit: baseCommit,
          tasks: 1,
          dated_by: 'release-diff',
          release_diff: releaseDiff,
        },
      ],
    });
    const card = readFileSync(join(release, 'README.md'), 'utf8');
    expect(card).toContain('## Freshness');
    expect(card).toContain("For a repository whose source is a release's sdist (no history), the body");
    // Every repository of this version was dated by release diff: blame's rule is not stated.
    expect(card).not.toContain('git blame -w -M -C');
    expect(card).toContain(`dated by release diff, 1.0 (released ${REWRITTEN}) against`);
    expect(card).toContain(`0.9 (released ${WRITTEN}, sdist sha256\n  \`${sha256}\`)`);
    expect(card).toContain('`release-diff:0.9..1.0`');
    const [written] = await readRebuildRecords(catalog, {
      repositories: ['demo'],
      selectionId,
      stateRoot: state,
      changedSince: CUTOFF,
    });
    expect(written?.meta.freshness).toMatchObject({
      changed_since: CUTOFF,
      dated_by: 'release-diff',
      release_diff: releaseDiff,
      oldest_body_changed_at: REWRITTEN,
    });
    expect(written?.lines.map((task) => [task.instance_id, task.body_commit])).toEqual([
      [SLUGIFY, 'release-diff:0.9..1.0'],
    ]);
  }, 600_000);
});
