import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Catalog, openCatalog } from './catalog.js';
import { CHECKPOINT_TABLES } from './repository-checkpoint.js';
import { makeTempDir, syntheticResults, syntheticRun } from './testing/test-support.js';

/** Two repositories' mining, tasks-stage and validation rows in a real catalog file. */
async function fill(catalog: Catalog, repository: string, jobs: number): Promise<void> {
  for (let job = 0; job < jobs; job += 1) {
    const hash = `${repository}-job-${job}`;
    await catalog.recordRun(syntheticRun(hash, 1, { repository }), syntheticResults(40, `tests/test_${job}.py::t`));
  }
  await catalog.saveMiningBaseline(repository, 'key-1', [
    { nodeId: 'tests/a.py::x', status: 'passing', outcomes: ['passed'], reason: null, seconds: 0.5 },
    { nodeId: "tests/a.py::y['q']", status: 'not-passing', outcomes: ['failed'], reason: 'fails', seconds: 1 },
  ]);
  await catalog.saveMiningCoverage(repository, 'key-1/shard/abc', [
    { functionId: 'f1', tests: ['tests/a.py::x'], subprocessTests: [], importTime: false },
  ]);
  await catalog.saveRelevantTests(repository, 'key-1', 'fast', {
    functionId: 'f1',
    qualname: 'Widget.f1',
    status: 'tests',
    tests: ['tests/a.py::x'],
    reason: null,
    method: 'in-process',
    candidates: 1,
    seconds: 0.25,
  });
  await catalog.recordStageTime({
    repository,
    stage: 'mine',
    seconds: 12.5,
    finishedAt: new Date(Date.UTC(2024, 1, 2)),
  });
  const cost = { repository, stage: 'mine', phase: 'baseline', jobs: 1, processes: 3, busySeconds: 2.5 };
  await catalog.addJobCost({ ...cost, testExecutions: 40 * jobs }, new Date(Date.UTC(2024, 1, 2)));
}

async function tableRows(catalog: Catalog, table: string, repository: string): Promise<unknown[][]> {
  const where =
    table === 'test_results'
      ? `run_id IN (SELECT run_id FROM runs WHERE repository = '${repository}')`
      : `repository = '${repository}'`;
  return (await catalog.query(`SELECT * FROM ${table} WHERE ${where} ORDER BY ALL`)).rows;
}

describe('repository checkpoints', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let source: Catalog;
  let target: Catalog;
  beforeEach(async () => {
    ({ dir, cleanup } = await makeTempDir());
    source = await openCatalog(join(dir, 'source.duckdb'));
    target = await openCatalog(join(dir, 'target.duckdb'));
  });
  afterEach(async () => {
    await source.close();
    await target.close();
    await cleanup();
  });

  it('carries one repository’s rows into another catalog whole, and a second restore adds none', async () => {
    await fill(source, 'sympy', 3);
    await fill(source, 'flask', 2);
    const folder = join(dir, 'checkpoints', 'sympy');

    const saved = await source.saveCheckpoint('sympy', folder);
    expect(Object.fromEntries(saved.map(({ table, rows }) => [table, rows]))).toEqual({
      runs: 3,
      test_results: 120,
      mining_baseline: 2,
      mining_coverage: 1,
      relevant_tests: 1,
      validations: 0,
      stage_times: 1,
      job_costs: 1,
    });

    const restored = await target.restoreCheckpoint('sympy', folder);
    expect(restored.map(({ rows, added }) => rows === added)).toEqual(CHECKPOINT_TABLES.map(() => true));
    for (const { name } of CHECKPOINT_TABLES) {
      expect(await tableRows(target, name, 'sympy')).toEqual(await tableRows(source, name, 'sympy'));
      expect(await tableRows(target, name, 'flask')).toEqual([]);
    }
    // What the stages read back is whole: a job's runs with their results, the baseline, the coverage.
    expect(await target.runsForJob('sympy-job-1')).toEqual(await source.runsForJob('sympy-job-1'));
    expect(await target.miningBaseline('sympy', 'key-1')).toEqual(await source.miningBaseline('sympy', 'key-1'));

    const again = await target.restoreCheckpoint('sympy', folder);
    expect(again.map(({ added }) => added)).toEqual(CHECKPOINT_TABLES.map(() => 0));
  });

  it('writes the same bytes for the same rows, so an unchanged table does not change a commit', async () => {
    await fill(source, 'sympy', 2);
    await source.saveCheckpoint('sympy', join(dir, 'one'));
    await target.restoreCheckpoint('sympy', join(dir, 'one'));
    await target.saveCheckpoint('sympy', join(dir, 'two'));
    for (const name of ['runs.parquet', 'test_results.parquet', 'relevant_tests.parquet', 'checkpoint.json']) {
      expect(await readFile(join(dir, 'two', name))).toEqual(await readFile(join(dir, 'one', name)));
    }
  });

  it('refuses a folder that is not one checkpoint, naming the file and what to do, and restores nothing', async () => {
    await fill(source, 'sympy', 1);
    const folder = join(dir, 'cp');
    await expect(target.restoreCheckpoint('sympy', folder)).rejects.toThrow(
      /checkpoint\.json: no checkpoint there .*repocod checkpoint save sympy/,
    );
    await source.saveCheckpoint('sympy', folder);
    await expect(target.restoreCheckpoint('flask', folder)).rejects.toThrow(/the checkpoint of sympy, not of flask/);

    const manifestFile = join(folder, 'checkpoint.json');
    const manifest = JSON.parse(await readFile(manifestFile, 'utf8'));
    await writeFile(manifestFile, JSON.stringify({ ...manifest, tables: { ...manifest.tables, runs: 7 } }));
    await expect(target.restoreCheckpoint('sympy', folder)).rejects.toThrow(
      /runs\.parquet: 1 row\(s\), checkpoint\.json says 7/,
    );
    await writeFile(manifestFile, JSON.stringify({ ...manifest, schema_version: 99 }));
    await expect(target.restoreCheckpoint('sympy', folder)).rejects.toThrow(/schema 99, newer than this tool's/);
    await writeFile(manifestFile, '{"format": "repocod-checkpoint/1",');
    await expect(target.restoreCheckpoint('sympy', folder)).rejects.toThrow(/checkpoint\.json: not JSON/);
    expect((await target.query('SELECT count(*) FROM runs')).rows[0]?.[0]).toBe(0);
  });
});
