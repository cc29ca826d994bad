import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Catalog } from '@repocod/catalog';
import { openCatalog } from '@repocod/catalog';
import { isRepocodError } from '@repocod/core';
import { REPOCOD_LITE_SPEC } from '@repocod/tasks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMineCommand } from '../commands/mine.js';
import { runTasksCommand } from '../commands/tasks.js';
import { runValidateCommand } from '../commands/validate.js';
import { publishStep } from '../steps/publish.js';
import { selectStep } from '../steps/select.js';
import { openMinedDemo } from '../testing/mined-demo.js';
import { copyDemo, makeTempDir } from '../testing/test-support.js';
import { releaseVersionDiff } from './version-diff.js';
import { versionDiffText } from './version-diff-text.js';
import { readVersionSide, releaseFolderVersions } from './version-side.js';

/**
 * Two versions of the demo in one release folder. 1.0: the bundled demo (its mined catalog), three tasks. 2.0: the
 * demo in a git history of the test's making, whose second commit (after the cutoff) changes slugify's body,
 * renames Item.parse_tags (so make_sample_catalog, which calls it, changes too) and adds a function, built with
 * --changed-since in a catalog of its own.
 */
const PROJECT_ROOT = resolve(new URL('../../../..', import.meta.url).pathname);
const temp = makeTempDir('repocod-version-diff-');
const out = join(temp.dir, 'release');
const CUTOFF = '2025-06-01T00:00:00Z';
const ID = (name: string): string => `demo-inventory.${name}`;
let catalogA: Catalog;
let catalogB: Catalog;
let history: string;

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
  const stateA = join(temp.dir, 'state-a');
  mkdirSync(stateA);
  const optionsA = { projectRoot: PROJECT_ROOT, stateRoot: stateA, workers: 2 };
  catalogA = await openMinedDemo(stateA);
  await runTasksCommand(catalogA, { ...optionsA, repository: 'demo' });
  const selectionA = (
    await selectStep(catalogA, { ...REPOCOD_LITE_SPEC, filter: "qualname IN ('quote', 'slugify', 'Item.parse_tags')" })
  ).selectionId;
  await runValidateCommand(catalogA, { ...optionsA, selectionId: selectionA });
  await publishStep(catalogA, { version: '1.0', out, selectionId: selectionA });

  const stateB = join(temp.dir, 'state-b');
  const optionsB = {
    projectRoot: PROJECT_ROOT,
    stateRoot: stateB,
    workers: 2,
    manifest: demoHistory(),
    ats: ['demo=HEAD'],
  };
  catalogB = await openCatalog(join(temp.dir, 'catalog-b.duckdb'));
  await runMineCommand(catalogB, { ...optionsB, repository: 'demo', mode: 'fast', changedSince: CUTOFF });
  await runTasksCommand(catalogB, { ...optionsB, repository: 'demo', changedSince: CUTOFF });
  const selectionB = (await selectStep(catalogB, REPOCOD_LITE_SPEC)).selectionId;
  await runValidateCommand(catalogB, { ...optionsB, selectionId: selectionB });
}, 1_200_000);

// Two state folders with an environment each: removing them takes a while on a busy machine.
afterAll(async () => {
  await catalogA?.close();
  await catalogB?.close();
  temp.cleanup();
}, 120_000);

describe('two versions of the demo, published into one folder', () => {
  it("publishes 1.0 without a changes section, and 2.0 with one against 1.0, 1.0's files untouched", async () => {
    const cardOfA = readFileSync(join(out, 'README.md'), 'utf8');
    expect(cardOfA).not.toContain('## Changes since');
    const parquetOfA = readFileSync(join(out, '1.0', 'test-00000-of-00001.parquet'));
    const published = await publishStep(catalogB, { version: '2.0', out, changedSince: CUTOFF });
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
    const report = await releaseVersionDiff(catalogB, out, { a: '1.0', b: '2.0' });
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
    const error: unknown = await releaseVersionDiff(
      catalogA,
      out,
      { a: '1.0', b: '2.0' },
      {
        catalogName: 'catalog-a.duckdb',
      },
    ).catch((e) => e);
    expect(isRepocodError(error) && error.code).toBe('usage');
    expect((error as Error).message).toMatch(
      /^catalog-a\.duckdb did not build version 2\.0: it holds demo's tasks at [0-9a-f]{12}, and version 2\.0 has demo/,
    );
    const against = await publishStep(catalogB, { version: '2.1', out, diffAgainst: '0.9', dryRun: true }).catch(
      (e) => e,
    );
    expect((against as Error).message).toBe(`--diff-against 0.9: not a version of ${out}; its versions: 1.0, 2.0`);
  });
});
