import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Catalog } from '@repocod/catalog';
import { IN_MEMORY, openCatalog } from '@repocod/catalog';
import { isRepocodError } from '@repocod/core';
import { REPOCOD_LITE_SPEC } from '@repocod/tasks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMineCommand } from '../commands/mine.js';
import { runTasksCommand } from '../commands/tasks.js';
import { runValidateCommand } from '../commands/validate.js';
import { publishStep } from '../steps/publish.js';
import { selectStep } from '../steps/select.js';
import { tasksOfSelection } from '../steps/selection-tasks.js';
import { TwoErasError } from './released-task.js';
import { writeLiteRecord, writeRebuildRecords } from '../records/rebuild-record-files.js';
import { openMinedDemo } from '../testing/mined-demo.js';
import { copyDemo, makeTempDir } from '../testing/test-support.js';
import { releaseVersionDiff } from './version-diff.js';
import { versionDiffText } from './version-diff-text.js';
import { readVersionSide, releaseFolderVersions } from './version-side.js';

/**
 * Two versions of the demo in one release folder, built in one catalog and one state folder. 1.0: the bundled demo
 * (its mined catalog), three tasks. 2.0: the demo in a git history of the test's making, whose second commit (after
 * the cutoff) changes slugify's body, renames Item.parse_tags (so make_sample_catalog, which calls it, changes too)
 * and adds a function, built with --at demo=HEAD and --changed-since: another era of the demo, kept beside 1.0's
 * tasks as `demo@COMMIT12` (catalog-name.ts).
 */
const PROJECT_ROOT = resolve(new URL('../../../..', import.meta.url).pathname);
const temp = makeTempDir('repocod-version-diff-');
const out = join(temp.dir, 'release');
const CUTOFF = '2025-06-01T00:00:00Z';
const ID = (name: string): string => `demo-inventory.${name}`;
let catalog: Catalog;
let history: string;
let selectionA: string;
let selectionB: string;
let historyManifest: string;

const INITIALS = `

def initials(text):
    """Return the upper-case initials of the words of a product name.

    Words are found as slugify finds them, so punctuation, underscores
    and accents do not start a word of their own.

    Parameters
    ----------
    text : str
        The product name.

    Returns
    -------
    str
        One upper-case character per word; empty for a name without words.
    """
    return "".join(word[0] for word in slugify(text).split("-") if word).upper()
`;

function commitAt(date: string, message: string): void {
  const env = { ...process.env, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date };
  execFileSync('git', ['add', '-A'], { cwd: history, env });
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '--no-gpg-sign', '-m', message], {
    cwd: history,
    env,
  });
}

/** The demo as a clone with a history: the bundled files in 2024, then three changes after the cutoff. */
function demoHistory(): string {
  history = copyDemo(join(temp.dir, 'history'));
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: history });
  commitAt('2024-01-10T12:00:00Z', 'the demo');
  const edit = (file: string, change: (text: string) => string): void =>
    writeFileSync(join(history, file), change(readFileSync(join(history, file), 'utf8')));
  edit('inventory/util.py', (text) =>
    text.replace(
      '    words = re.split(r"[\\W_]+", without_marks.lower())',
      '    lowered = without_marks.lower()\n    words = re.split(r"[\\W_]+", lowered)',
    ),
  );
  edit('inventory/util.py', (text) =>
    text.replace('\n\ndef normalize_sku(raw):', `${INITIALS}\n\ndef normalize_sku(raw):`),
  );
  edit(
    'tests/test_util.py',
    (text) =>
      `${text}\n\ndef test_initials():\n    from inventory.util import initials\n\n` +
      `    assert initials("Steel bolt m8") == "SBM"\n`,
  );
  for (const file of ['inventory/models.py', 'tests/test_models.py'])
    edit(file, (text) => text.replaceAll('parse_tags', 'split_tags'));
  commitAt('2025-08-01T12:00:00Z', 'slugify reworded, parse_tags renamed, initials added');
  const manifest = join(temp.dir, 'manifest-history.yaml');
  writeFileSync(
    manifest,
    readFileSync(join(PROJECT_ROOT, 'datasets/demo/manifest.yaml'), 'utf8').replace(
      'source: datasets/demo',
      `source: ${history}`,
    ),
  );
  return manifest;
}

beforeAll(async () => {
  const state = join(temp.dir, 'state');
  mkdirSync(state);
  const optionsA = { projectRoot: PROJECT_ROOT, stateRoot: state, workers: 2 };
  catalog = await openMinedDemo(state);
  await runTasksCommand(catalog, { ...optionsA, repository: 'demo' });
  selectionA = (
    await selectStep(catalog, { ...REPOCOD_LITE_SPEC, filter: "qualname IN ('quote', 'slugify', 'Item.parse_tags')" })
  ).selectionId;
  await runValidateCommand(catalog, { ...optionsA, selectionId: selectionA });
  await publishStep(catalog, { version: '1.0', out, selectionId: selectionA });

  historyManifest = demoHistory();
  const optionsB = { ...optionsA, manifest: historyManifest, ats: ['demo=HEAD'] };
  await runMineCommand(catalog, { ...optionsB, repository: 'demo', mode: 'fast', changedSince: CUTOFF });
  await runTasksCommand(catalog, { ...optionsB, repository: 'demo', changedSince: CUTOFF });
  // Both eras are in the pool now: a selection takes one commit of a repository.
  const eraFilter = { ...REPOCOD_LITE_SPEC, filter: "repository <> 'demo'" };
  selectionB = (await selectStep(catalog, eraFilter)).selectionId;
  await runValidateCommand(catalog, { ...optionsB, selectionId: selectionB });
}, 1_200_000);

// A state folder with two environments: removing it takes a while on a busy machine.
afterAll(async () => {
  await catalog?.close();
  temp.cleanup();
}, 120_000);

describe('two eras of the demo in one catalog', () => {
  it("keeps 1.0's tasks and selection as they were, and the new commit's beside them under its own name", async () => {
    const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: history, encoding: 'utf8' }).trim();
    const era = `demo@${head.slice(0, 12)}`;
    const names = (await catalog.repositories()).map((repository) => repository.name).sort();
    expect(names).toEqual(['demo', era]);
    const a = await tasksOfSelection(catalog, selectionA);
    expect(a.tasks.map((task) => task.instanceId)).toEqual([
      ID('models.Item.parse_tags'),
      ID('pricing.quote'),
      ID('util.slugify'),
    ]);
    expect(new Set(a.tasks.map((task) => task.repository))).toEqual(new Set(['demo']));
    const b = await tasksOfSelection(catalog, selectionB);
    expect(b.tasks.map((task) => task.instanceId)).toEqual([
      `${ID('models.make_sample_catalog')}@${head.slice(0, 12)}`,
      `${ID('util.initials')}@${head.slice(0, 12)}`,
      `${ID('util.slugify')}@${head.slice(0, 12)}`,
    ]);
    expect(b.tasks.every((task) => task.repository === era && task.baseCommit === head)).toBe(true);
    // Two slugify tasks, one per era, each with its own validation.
    const slugify = (await catalog.tasks()).filter((task) => task.qualname === 'slugify');
    expect(slugify.map((task) => task.repository).sort()).toEqual(['demo', era]);
    const verdicts = await catalog.validations({ instanceIds: slugify.map((task) => task.instanceId) });
    expect(new Set(verdicts.map((row) => row.instanceId)).size).toBe(2);
    // Each era has its own working copy in the one state folder.
    const state = join(temp.dir, 'state');
    expect(
      execFileSync('git', ['rev-parse', 'HEAD'], { cwd: join(state, 'repos', era), encoding: 'utf8' }).trim(),
    ).toBe(head);
    expect(a.tasks[0]?.baseCommit).not.toBe(head);
  });

  it("validates an era's tasks at their commit without --at, refuses an --at that contradicts them", async () => {
    const state = join(temp.dir, 'state');
    const options = { projectRoot: PROJECT_ROOT, stateRoot: state, workers: 2, manifest: historyManifest };
    // Every verdict is stored: the era is prepared at its commit (from its catalog name) and nothing runs again.
    const again = await runValidateCommand(catalog, { ...options, selectionId: selectionB });
    expect(again.validations.map((row) => row.status)).toEqual(['passed', 'passed', 'passed']);
    const contradicted = await runValidateCommand(catalog, {
      ...options,
      ats: ['demo=HEAD'],
      selectionId: selectionA,
    }).catch((error: unknown) => error);
    expect(isRepocodError(contradicted) && contradicted.code).toBe('usage');
    expect((contradicted as Error).message).toMatch(
      /^demo: these tasks are demo at its manifest's commit, but demo=HEAD builds demo@[0-9a-f]{12}; drop --at demo=…/,
    );
  });

  it('refuses a selection that would take both eras, naming them and the filter that chooses', async () => {
    const error: unknown = await selectStep(catalog, REPOCOD_LITE_SPEC).catch((e) => e);
    expect(error).toBeInstanceOf(TwoErasError);
    const refused = error as TwoErasError;
    expect(refused.repository).toBe('demo');
    expect([...refused.eras.keys()][0]).toBe('demo');
    expect(refused.message).toMatch(
      /^the picks of the selection spec: demo at 2 commits \(demo, demo@[0-9a-f]{12}\); a version takes one commit/,
    );
    expect(refused.message).toContain(`"filter": "repository <> 'demo'"`);
  });
});

describe('records of two eras in one catalog', () => {
  it("writes an era's record under the manifest name, with a release's ids, one era per folder", async () => {
    const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: history, encoding: 'utf8' }).trim();
    const era = `demo@${head.slice(0, 12)}`;
    const folder = join(temp.dir, 'record-2.0');
    const options = { stateRoot: join(temp.dir, 'state'), selectionId: selectionB, changedSince: CUTOFF };
    const [written] = await writeRebuildRecords(catalog, folder, { ...options, repositories: [era] });
    expect(written?.repository).toBe('demo');
    const lines = readFileSync(join(folder, 'demo.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { instance_id: string; selected: boolean; valid: boolean | null });
    expect(lines.map((line) => [line.instance_id, line.selected])).toEqual([
      [ID('models.make_sample_catalog'), true],
      [ID('util.initials'), true],
      [ID('util.slugify'), true],
    ]);
    expect(lines.every((line) => line.valid !== null)).toBe(true);
    const meta = JSON.parse(readFileSync(join(folder, 'demo.meta.json'), 'utf8'));
    expect([meta.repository, meta.base_commit, meta.stands_in_for, meta.freshness.changed_since]).toEqual([
      'demo',
      head,
      null,
      CUTOFF,
    ]);
    const lite = await writeLiteRecord(catalog, folder, selectionB);
    const record = JSON.parse(readFileSync(lite.file, 'utf8'));
    expect(record.by_repository).toEqual({ demo: 3 });
    expect(JSON.stringify(record)).not.toContain('@');
    const both = await writeRebuildRecords(catalog, folder, { ...options, repositories: ['demo', era] }).catch(
      (error: unknown) => error,
    );
    expect(both).toBeInstanceOf(TwoErasError);
    expect((both as Error).message).toContain('record each commit into a folder of its own (--out)');
  });
});

describe('two versions of the demo, published into one folder', () => {
  it("publishes 1.0 without a changes section, and 2.0 with one against 1.0, 1.0's files untouched", async () => {
    const cardOfA = readFileSync(join(out, 'README.md'), 'utf8');
    expect(cardOfA).not.toContain('## Changes since');
    const parquetOfA = readFileSync(join(out, '1.0', 'test-00000-of-00001.parquet'));
    const published = await publishStep(catalog, {
      version: '2.0',
      out,
      selectionId: selectionB,
      changedSince: CUTOFF,
    });
    expect(published.changes?.a.version).toBe('1.0');
    expect(readFileSync(join(out, '1.0', 'test-00000-of-00001.parquet')).equals(parquetOfA)).toBe(true);
    const card = readFileSync(join(out, 'README.md'), 'utf8');
    // The section is the card body's last, after the 2.0's own statistics and validation.
    const section = card.slice(card.indexOf('## Changes since 1.0'));
    expect(section).toMatch(/^## Changes since 1\.0\n\nVersion 2\.0 against 1\.0 \(`repocod report --diff 1\.0 2\.0`/);
    expect(section).toContain('1 task(s) kept (the same function in both; 1 with a changed body), 2 added, 2 removed');
    expect(section).toMatch(/\| 1\.0 \| not recorded \| demo \| `[0-9a-f]{12}` \| \d{4}-\d\d-\d\d \| 3 \|/);
    expect(section).toMatch(/\| 2\.0 \| 2025-06-01 \| demo \| `[0-9a-f]{12}` \| 2025-08-01 \| 3 \|/);
    expect(section).toContain('| demo | 3 | 3 | 0 | 1 | 2 | 2 |');
    expect(section).toContain('| function deleted, renamed or moved | 1 |\n| body unchanged since the cutoff | 1 |');
    expect(section).toContain('| body written or changed after the earlier base commit | 2 |');
  });

  it('reads the diff back from the folder, each task with its reason, as text and as JSON', async () => {
    // The cutoff is the one 2.0's freshness.json records (published with --changed-since).
    const report = await releaseVersionDiff(catalog, out, { a: '1.0', b: '2.0' });
    expect(report.kept).toEqual([{ instanceId: ID('util.slugify'), repository: 'demo', change: 'changed-body' }]);
    expect(report.removed.map((task) => [task.instanceId, task.reason])).toEqual([
      [ID('models.Item.parse_tags'), 'function-gone'],
      [ID('pricing.quote'), 'body-unchanged-since-cutoff'],
    ]);
    expect(report.removed[1]?.detail).toMatch(
      /^body last changed 2024-01-10 in [0-9a-f]{12}, not after the cutoff 2025-06-01$/,
    );
    expect(report.added.map((task) => [task.instanceId, task.reason])).toEqual([
      [ID('models.make_sample_catalog'), 'changed-after-a'],
      [ID('util.initials'), 'changed-after-a'],
    ]);
    expect(report.removedByReason).toMatchObject({
      'function-gone': 1,
      'body-unchanged-since-cutoff': 1,
      'not-mined': 0,
    });
    expect(report.b).toMatchObject({ version: '2.0', cutoff: CUTOFF, from: 'release', tasks: 3 });
    expect(report.a).toMatchObject({ version: '1.0', cutoff: null, from: null, tasks: 3 });
    // JSON round trip: the report is plain data.
    expect(JSON.parse(JSON.stringify(report))).toEqual(report);
    const text = versionDiffText(report);
    expect(text).toMatch(/^1\.0 → 2\.0: 1 kept \(0 same body, 1 changed body\), 2 added, 2 removed\n/);
    expect(text).toContain('  function-gone: 1, function deleted, renamed or moved\n');
    expect(text).toContain(`    - ${ID('models.Item.parse_tags')}  (no function of that file and name at the base`);
    expect(text).toContain(`    + ${ID('util.initials')}  (body changed 2025-08-01 in `);
    expect(text).toContain(`    ~ ${ID('util.slugify')}\n`);
    const counts = text.split('\n').find((line) => line.startsWith('  demo ') && !/[0-9a-f]{12}/.test(line));
    expect(counts?.split(/ +/)).toEqual(['', 'demo', '3', '3', '0', '1', '2', '2']);
  });

  it('names the versions that exist for an unknown one, and refuses a folder that is no release', () => {
    expect(releaseFolderVersions(out)).toEqual(['1.0', '2.0']);
    const unknown = (() => {
      try {
        readVersionSide(out, '3.0');
      } catch (error) {
        return error;
      }
    })();
    expect(isRepocodError(unknown) && unknown.code).toBe('usage');
    expect((unknown as Error).message).toBe(`version 3.0 is not in ${out}; its versions: 1.0, 2.0`);
    expect(() => releaseFolderVersions(temp.dir)).toThrow(/is not a release folder: no VERSION\/test-00000/);
    expect(() => releaseFolderVersions(join(temp.dir, 'nowhere'))).toThrow(/no such folder/);
  });

  it('refuses a catalog that did not build version B, and a --diff-against that is not in the folder', async () => {
    // A catalog with 1.0's commit of the demo only.
    const onlyA = await openCatalog(IN_MEMORY);
    try {
      await onlyA.replaceTasks('demo', await catalog.tasks('demo'));
      const error: unknown = await releaseVersionDiff(
        onlyA,
        out,
        { a: '1.0', b: '2.0' },
        {
          catalogName: 'catalog-a.duckdb',
        },
      ).catch((e) => e);
      expect(isRepocodError(error) && error.code).toBe('usage');
      expect((error as Error).message).toMatch(
        /^catalog-a\.duckdb did not build version 2\.0: it holds demo's tasks at [0-9a-f]{12}, and version 2\.0 has/,
      );
    } finally {
      await onlyA.close();
    }
    const against = await publishStep(catalog, { version: '2.1', out, diffAgainst: '0.9', dryRun: true }).catch(
      (e) => e,
    );
    expect((against as Error).message).toBe(`--diff-against 0.9: not a version of ${out}; its versions: 1.0, 2.0`);
  });
});
