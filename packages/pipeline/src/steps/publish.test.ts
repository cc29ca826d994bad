import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Catalog } from '@repocod/catalog';
import { isRepocodError } from '@repocod/core';
import { PARQUET_NAME, releaseFiles } from '@repocod/publish';
import type { LoopbackHub } from '@repocod/testkit';
import { startLoopbackHub } from '@repocod/testkit';
import { REPOCOD_LITE_SPEC } from '@repocod/tasks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openMinedDemo } from '../testing/mined-demo.js';
import { publishStep } from './publish.js';
import { selectStep } from './select.js';
import { runTasksCommand } from '../commands/tasks.js';
import { runValidateCommand } from '../commands/validate.js';

const PROJECT_ROOT = resolve(new URL('../../../..', import.meta.url).pathname);
const state = mkdtempSync(join(tmpdir(), 'repocod-publish-'));
const options = { projectRoot: PROJECT_ROOT, stateRoot: state, workers: 2 };
// The demo's task that REPOCOD's rule rejects: its tests pass with the body removed.
const EQ = 'demo-inventory.util.ensure_non_negative';
const RELEASED = ['demo-inventory.pricing.quote', 'demo-inventory.util.slugify'];
const out = join(state, 'release');
let catalog: Catalog;
let selectionId: string;
let hub: LoopbackHub;

const filter = (names: readonly string[]): string => `qualname IN (${names.map((name) => `'${name}'`).join(', ')})`;

beforeAll(async () => {
  catalog = await openMinedDemo(state);
  await runTasksCommand(catalog, { ...options, repository: 'demo' });
  // Record.__eq__ fails validation: without its body it returns None, and `assert a != b` holds.
  selectionId = (
    await selectStep(catalog, { ...REPOCOD_LITE_SPEC, filter: filter(['slugify', 'quote', 'ensure_non_negative']) })
  ).selectionId;
  await runValidateCommand(catalog, { ...options, selectionId });
  hub = await startLoopbackHub();
}, 600_000);

afterAll(async () => {
  await hub.close();
  await catalog.close();
});

const bytesOf = (folder: string, path: string): Buffer => readFileSync(join(folder, path));

describe('publishing a validated selection', () => {
  it(
    'writes the tasks that passed validation as Parquet DuckDB reads back, with the card and the validation ' +
      'record',
    async () => {
      const release = await publishStep(catalog, { version: '1.0', out, selectionId, stateRoot: state });
      expect(release.content?.rows.map((row) => row.instance_id)).toEqual(RELEASED);
      // The exact packages the tasks were validated with, from the environment's marker.
      const environments = readFileSync(join(out, '1.0', 'environments.txt'), 'utf8');
      expect(environments).toMatch(
        new RegExp(
          String.raw`^# demo: Python 3\.\d+\.\d+, environment [0-9a-f]{16}, packages sha256 [0-9a-f]{16}\n# installer` +
            String.raw` (uv|pip), undated\n`,
        ),
      );
      expect(environments).toMatch(/^pytest==8\.3\.5$/m);
      expect(release.content?.leftOut).toEqual([
        {
          instanceId: EQ,
          status: 'failed',
          check: 'fails-without-body',
          detail: 'no FAIL_TO_PASS test fails without the body (4 pass)',
        },
      ]);
      expect(release.release.files).toEqual([
        'README.md',
        `data/${PARQUET_NAME}`,
        '1.0/environments.txt',
        '1.0/tasks.jsonl',
        `1.0/${PARQUET_NAME}`,
        '1.0/validation.jsonl',
      ]);
      const read = await catalog.query(
        `SELECT instance_id, version, repo, to_json(evaluation.FAIL_TO_PASS)::VARCHAR AS tests FROM ` +
          `read_parquet('${join(out, '1.0', PARQUET_NAME)}') ORDER BY instance_id`,
      );
      const validations = new Map((await catalog.validations()).map((row) => [row.instanceId, row]));
      expect(read.rows).toEqual(
        RELEASED.map((id) => [id, '1.0', 'demo', JSON.stringify(validations.get(id)?.failToPass)]),
      );
      const facts = readFileSync(join(out, '1.0', 'tasks.jsonl'), 'utf8')
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      // REPOCOD's function_name: a module-level function by its name (repocod-function-name.ts).
      expect(facts.map((line) => [line.instance_id, line.qualname, line.function_name])).toEqual([
        ['demo-inventory.pricing.quote', 'quote', 'quote'],
        ['demo-inventory.util.slugify', 'slugify', 'slugify'],
      ]);
      const card = readFileSync(join(out, 'README.md'), 'utf8');
      expect(card).toMatch(/^---\ndataset_info:\n/);
      expect(card).toContain('| all | 2 |');
      // The demo is none of REPOCOD's repositories: the card says what the release is, not how far it is from
      // REPOCOD's tables (which would list all eleven with 0 tasks).
      expect(card).not.toContain('## Fidelity to REPOCOD');
      expect(card).toContain('## What this is');
      expect(card).toContain('benchmark of 2 tasks from 1 repository (demo), built with repocod-kit');
      expect(card).toContain('| 1. the starting state collects | 3 | 0 | 0 |');
      expect(card).toContain('| 2. the tests fail without the body | 2 | 1 | 0 |');
      expect(card).toContain('| 3. the tests pass with the gold patches (3 runs) | 3 | 0 | 0 |');
      expect(card).toContain('Of 3 selected tasks, 2 passed every check; released: 2; left out: 1.');
      expect(card).toContain(
        `| ${EQ} | fails-without-body | no FAIL_TO_PASS test fails without the body (4 pass) | no |`,
      );
      expect(card).toMatch(
        /Provenance: repocod-kit \d+\.\d+\.\d+.*; demo: Python 3\.\d+\.\d+, installed packages sha256 `[0-9a-f]{16}`\./,
      );
      expect(card).toContain(
        'every FAIL_TO_PASS test passes, in each of 3 runs, and the whole\n   FAIL_TO_PASS fits the limit',
      );
      expect(card).not.toContain('## Renamed instance ids');
      const record = readFileSync(join(out, '1.0', 'validation.jsonl'), 'utf8')
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(
        record.map((line) => [line.instance_id, line.released, line.status, (line.run_ids as string[]).length]),
      ).toEqual([
        // Three runs each: the pre state collecting, the run without the body, and the one run of the gold evaluation
        // that measures the fit within the limit; mining's baseline answers the k runs of the gold check.
        ['demo-inventory.pricing.quote', true, 'passed', 3],
        [EQ, false, 'failed', 3],
        ['demo-inventory.util.slugify', true, 'passed', 3],
      ]);
    },
  );

  it('adds a version beside the first, releasing a failed task the curator keeps, and diffs it', async () => {
    const first = bytesOf(out, `1.0/${PARQUET_NAME}`);
    const release = await publishStep(catalog, { version: '1.1', out, selectionId, keep: [EQ] });
    expect(release.release.diff).toEqual({ previous: '1.0', added: [EQ], removed: [], changed: [] });
    expect(release.content?.kept.map((task) => task.instanceId)).toEqual([EQ]);
    expect(bytesOf(out, `1.0/${PARQUET_NAME}`)).toEqual(first);
    expect(bytesOf(out, `data/${PARQUET_NAME}`)).toEqual(bytesOf(out, `1.1/${PARQUET_NAME}`));
    expect(readFileSync(join(out, 'README.md'), 'utf8')).toContain('(1 kept by the curator despite a failed check)');
    await expect(publishStep(catalog, { version: '1.2', out, selectionId, keep: ['demo-nope'] })).rejects.toThrow(
      /--keep demo-nope: not a task of selection/,
    );
  });

  it('refuses tasks that were not validated as they are now', async () => {
    const other = await selectStep(catalog, { ...REPOCOD_LITE_SPEC, filter: filter(['slugify', 'Warehouse.pick']) });
    await expect(
      publishStep(catalog, { version: '9', out: join(state, 'unvalidated'), selectionId: other.selectionId }),
    ).rejects.toThrow(
      new RegExp(
        String.raw`1 of the 2 task\(s\) of selection \w+ have not been validated as they are now ` +
          String.raw`\(demo-inventory\.warehouse\.Warehouse\.pick\); run ` +
          '`repocod validate --selection ' +
          String.raw`\w+` +
          '` first',
      ),
    );
    expect(existsSync(join(state, 'unvalidated'))).toBe(false);
  });
});

describe('publishing to the Hub (a loopback server)', () => {
  const push = (): { repo: string; hubUrl: string; accessToken: string } => ({
    repo: 'repocod/demo-lite',
    hubUrl: hub.url,
    accessToken: hub.token,
  });

  it('uploads the whole release folder in one commit, creating the dataset repository', async () => {
    const pushed = await publishStep(catalog, { out, push: push() });
    expect(pushed.pushed?.created).toBe(true);
    expect(pushed.commitTitle).toBe('Upload the release (versions 1.0, 1.1)');
    const [commit, ...more] = hub.commits('repocod/demo-lite');
    expect(more).toEqual([]);
    expect(commit?.title).toBe('Upload the release (versions 1.0, 1.1)');
    expect(commit?.files.map((file) => file.path).sort()).toEqual([...releaseFiles(out)].sort());
    for (const file of commit?.files ?? []) expect(Buffer.from(file.bytes)).toEqual(bytesOf(out, file.path));
    expect(
      commit?.files
        .filter((file) => file.lfs)
        .map((file) => file.path)
        .sort(),
    ).toEqual([`1.0/${PARQUET_NAME}`, `1.1/${PARQUET_NAME}`, `data/${PARQUET_NAME}`]);
  });

  it('starts an empty folder from the release on the Hub, adds the version beside it, and pushes', async () => {
    const fresh = join(state, 'from-hub');
    const published = await publishStep(catalog, { version: '2.0', out: fresh, selectionId, push: push() });
    expect(published.downloaded?.versions).toEqual(['1.0', '1.1']);
    expect(bytesOf(fresh, `1.0/${PARQUET_NAME}`)).toEqual(bytesOf(out, `1.0/${PARQUET_NAME}`));
    expect(published.release.diff).toEqual({ previous: '1.1', added: [], removed: [EQ], changed: [] });
    expect(published.release.configs.map((config) => config.version)).toEqual(['1.0', '1.1', '2.0']);
    const commits = hub.commits('repocod/demo-lite');
    expect(commits).toHaveLength(2);
    expect(commits[1]?.title).toBe('Add version 2.0 (2 tasks)');
    expect(commits[1]?.description).toMatch(
      /^Selection \w+: 2 of 3 selected tasks released after validation \(repocod-kit /,
    );
    const onHub = hub.files('repocod/demo-lite');
    expect([...(onHub?.keys() ?? [])].sort()).toEqual([...releaseFiles(fresh)].sort());
    expect(Buffer.from(onHub?.get('README.md')?.bytes ?? [])).toEqual(bytesOf(fresh, 'README.md'));
    // The folder that lacks 2.0 may no longer push: its card would drop a published version.
    await expect(publishStep(catalog, { out, push: push() })).rejects.toThrow(
      /repocod\/demo-lite on the Hub has version\(s\) 2\.0 that .*release lacks/,
    );
  });

  it('lists what a dry run would upload, and writes and uploads nothing', async () => {
    const fresh = join(state, 'from-hub');
    const before = hub.commits().length;
    const planned = await publishStep(catalog, {
      version: '3.0',
      out: fresh,
      selectionId,
      push: push(),
      dryRun: true,
    });
    expect(planned.upload?.files.map((file) => file.path)).toEqual([
      'README.md',
      `data/${PARQUET_NAME}`,
      '1.0/environments.txt',
      '1.0/tasks.jsonl',
      `1.0/${PARQUET_NAME}`,
      '1.0/validation.jsonl',
      '1.1/tasks.jsonl',
      `1.1/${PARQUET_NAME}`,
      '1.1/validation.jsonl',
      '2.0/tasks.jsonl',
      `2.0/${PARQUET_NAME}`,
      '2.0/validation.jsonl',
      '3.0/tasks.jsonl',
      `3.0/${PARQUET_NAME}`,
      '3.0/validation.jsonl',
    ]);
    expect(planned.upload?.files.find((file) => file.path === `3.0/${PARQUET_NAME}`)?.bytes).toBe(
      planned.writes.find((write) => write.path === `3.0/${PARQUET_NAME}`)?.bytes,
    );
    expect(planned.pushed).toBeNull();
    expect(existsSync(join(fresh, '3.0'))).toBe(false);
    expect(hub.commits()).toHaveLength(before);
  });

  it('keeps the release folder whole when the upload fails, and a rerun of the push completes it', async () => {
    const fresh = join(state, 'from-hub');
    hub.failNext('commit', 500, 'the Hub is having a bad day');
    const failure = await publishStep(catalog, { version: '3.0', out: fresh, selectionId, push: push() }).catch(
      (error: unknown) => error,
    );
    expect(isRepocodError(failure) && failure.code).toBe('hub-failed');
    const message = failure instanceof Error ? failure.message : '';
    expect(message).toContain('the Hub is having a bad day');
    expect(message).toContain(`rerun: repocod publish --push repocod/demo-lite --out ${fresh}`);
    expect(message).not.toContain(hub.token);
    expect(existsSync(join(fresh, '3.0', PARQUET_NAME))).toBe(true);
    expect(hub.files('repocod/demo-lite')?.has(`3.0/${PARQUET_NAME}`)).toBe(false);
    const rerun = await publishStep(catalog, { out: fresh, push: push() });
    expect(rerun.pushed?.created).toBe(false);
    expect(Buffer.from(hub.files('repocod/demo-lite')?.get(`3.0/${PARQUET_NAME}`)?.bytes ?? [])).toEqual(
      bytesOf(fresh, `3.0/${PARQUET_NAME}`),
    );
  });
});

describe('a release of tasks a migration renamed', () => {
  it('lists each released task’s earlier id beside its id in the card', async () => {
    await catalog.query(
      "INSERT INTO instance_id_renames VALUES ('demo-pkg.inventory.util.slugify', 'demo-inventory.util.slugify', " +
        "'demo', 'the module path is taken from the package root', now())",
    );
    try {
      const folder = join(state, 'renamed');
      await publishStep(catalog, { version: '1.0', out: folder, selectionId });
      const card = readFileSync(join(folder, 'README.md'), 'utf8');
      expect(card).toContain(
        [
          '## Renamed instance ids',
          '',
          '1 released task(s) have an id other than in earlier releases of repocod-kit (the module path is taken ' +
            'from the package root):',
          '',
          '| earlier id | id in this release |',
          '|---|---|',
          '| demo-pkg.inventory.util.slugify | demo-inventory.util.slugify |',
        ].join('\n'),
      );
    } finally {
      await catalog.query('DELETE FROM instance_id_renames');
    }
  });

  it('says a selection that holds no task has nothing to release, and why, not that validation failed', async () => {
    const empty = await selectStep(catalog, { ...REPOCOD_LITE_SPEC, filter: filter(['no_such_function']) });
    const refused = await publishStep(catalog, {
      version: '9.0',
      out: join(state, 'empty-release'),
      selectionId: empty.selectionId,
      stateRoot: state,
    }).catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: 'usage' });
    expect((refused as Error).message).toContain(
      `selection ${empty.selectionId} holds no task: nothing to release (extract, mine and tasks say why`,
    );
    expect((refused as Error).message).not.toContain('passed validation');
  });
});

describe('a release selected under task-quality rules', () => {
  it('states the rules in force and what each removed; a release without rules says nothing of them', async () => {
    const plain = readFileSync(join(out, 'README.md'), 'utf8');
    expect(plain).not.toContain('Task-quality rules');
    const ruled = await selectStep(catalog, {
      ...REPOCOD_LITE_SPEC,
      filter: filter(['slugify', 'quote', 'ensure_non_negative']),
      quality: { minSolutionLines: 3 },
    });
    const short = ruled.qualityRemoved.filter((removal) =>
      removal.findings.some((finding) => finding.rule === 'minSolutionLines'),
    );
    expect(short.length).toBeGreaterThan(0);
    const folder = join(state, 'quality');
    await publishStep(catalog, { version: '1.0', out: folder, selectionId: ruled.selectionId });
    const card = readFileSync(join(folder, 'README.md'), 'utf8');
    expect(card).toContain(
      "Task-quality rules: minSolutionLines 3, maxFailToPassShare 1 (REPOCOD's), preStateMustCollect false " +
        `(REPOCOD's). They removed ${ruled.qualityRemoved.length} of the catalog's tasks\nbefore ranking:`,
    );
    expect(card).toContain(`- minSolutionLines: ${short.length} task(s) removed (e.g. `);
  });
});
