import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Catalog, openCatalog } from './catalog.js';
import type { RunStatus, TestOutcome } from './runs-table.js';
import { byNodeId, makeTempDir, syntheticResults, syntheticRun } from './testing/test-support.js';

describe('Catalog runs', () => {
  let catalog: Catalog;
  let path: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    let dir: string;
    ({ dir, cleanup } = await makeTempDir());
    path = join(dir, 'catalog.duckdb');
    catalog = await openCatalog(path);
  });
  afterEach(async () => {
    await catalog.close();
    await cleanup();
  });

  async function count(table: 'runs' | 'test_results'): Promise<unknown> {
    return (await catalog.query(`SELECT count(*) FROM ${table}`)).rows[0]?.[0];
  }

  it('round-trips a whole-suite run of 3,000 results, also after reopening the file', async () => {
    const run = syntheticRun('suite', 1);
    const results = syntheticResults(3000);
    await catalog.recordRun(run, results);

    const expected = [{ ...run, results: byNodeId(results) }];
    expect(await catalog.runsForJob('suite')).toEqual(expected);

    await catalog.close();
    catalog = await openCatalog(path);
    const [stored] = await catalog.runsForJob('suite');
    expect(stored).toEqual(expected[0]);
    expect(stored?.results).toHaveLength(3000);
    expect(stored?.results.filter((r) => r.outcome === 'missing')).toHaveLength(
      results.filter((r) => r.outcome === 'missing').length,
    );
  });

  it('stores a run without results', async () => {
    const run = syntheticRun('broken-env', 1, {
      status: 'infra-error',
      exitCode: null,
      log: 'uv: no such interpreter',
    });
    await catalog.recordRun(run, []);
    expect(await catalog.runsForJob('broken-env')).toEqual([{ ...run, results: [] }]);
  });

  it('replaces the earlier rows of a run recorded again, leaving other runs alone', async () => {
    await catalog.recordRun(syntheticRun('job', 1), syntheticResults(50));
    await catalog.recordRun(syntheticRun('job', 2), syntheticResults(50));

    const retried = syntheticRun('job', 1, { status: 'crashed', exitCode: -9, durationSeconds: 3.5, log: 'killed' });
    const fewer = syntheticResults(5, 'tests/other.py::test');
    await catalog.recordRun(retried, fewer);
    // The same write again, as after a crash between the commit and the caller hearing of it.
    await catalog.recordRun(retried, fewer);

    const stored = await catalog.runsForJob('job');
    expect(stored.map((run) => run.runId)).toEqual(['job#1', 'job#2']);
    expect(stored[0]).toEqual({ ...retried, results: byNodeId(fewer) });
    expect(stored[1]?.results).toHaveLength(50);
    expect(await count('runs')).toBe(2);
    expect(await count('test_results')).toBe(55);
  });

  it('gives every attempt of one job in attempt order, and nothing of other jobs', async () => {
    for (const attempt of [3, 1, 2]) {
      await catalog.recordRun(syntheticRun('flaky', attempt), syntheticResults(4));
    }
    // Another job with the same tests and the same repository: only the hash tells them apart.
    await catalog.recordRun(syntheticRun('other', 1, { patchesHash: 'gold' }), syntheticResults(4));
    await catalog.recordRun(syntheticRun('flakyx', 1), syntheticResults(2));

    const flaky = await catalog.runsForJob('flaky');
    expect(flaky.map((run) => [run.runId, run.attempt])).toEqual([
      ['flaky#1', 1],
      ['flaky#2', 2],
      ['flaky#3', 3],
    ]);
    expect(flaky.every((run) => run.jobHash === 'flaky' && run.results.length === 4)).toBe(true);
    expect((await catalog.runsForJob('other')).map((run) => run.runId)).toEqual(['other#1']);
    expect(await catalog.runsForJob('never-ran')).toEqual([]);
  });

  it('lists runs without results, by start time, optionally of one repository', async () => {
    const early = syntheticRun('a', 2, { repository: 'sympy/sympy', startedAt: new Date('2024-01-01T00:00:00Z') });
    const late = syntheticRun('b', 1, { startedAt: new Date('2024-06-01T00:00:00Z') });
    const middle = syntheticRun('c', 1, { startedAt: new Date('2024-03-01T00:00:00Z') });
    for (const run of [late, early, middle]) await catalog.recordRun(run, syntheticResults(3));

    expect(await catalog.runs()).toEqual([early, middle, late]);
    expect(await catalog.runs({ repository: 'pallets/flask' })).toEqual([middle, late]);
    expect(await catalog.runs({ repository: 'nobody' })).toEqual([]);
  });

  describe('is all or nothing', () => {
    it('a CHECK violation in the last of 3,000 results leaves the earlier copy of the run in place', async () => {
      const run = syntheticRun('job', 1);
      const original = syntheticResults(20);
      await catalog.recordRun(run, original);

      const results = syntheticResults(3000);
      results[2999] = { ...results[2999]!, outcome: 'passed-ish' as TestOutcome };
      await expect(catalog.recordRun({ ...run, log: 'second write' }, results)).rejects.toMatchObject({
        code: 'catalog-error',
        message: expect.stringMatching(
          /recording run job#1 of job job failed and nothing of it was written: .*CHECK constraint/,
        ),
      });

      expect(await catalog.runsForJob('job')).toEqual([{ ...run, results: byNodeId(original) }]);
      expect(await count('test_results')).toBe(20);
    });

    it('a new run with a CHECK violation leaves no run row and no results', async () => {
      await expect(
        catalog.recordRun(syntheticRun('job', 1, { status: 'flaky' as RunStatus }), syntheticResults(100)),
      ).rejects.toMatchObject({ code: 'catalog-error', message: expect.stringContaining('CHECK constraint') });
      const bad = syntheticResults(100);
      bad[50] = { ...bad[50]!, outcome: 'PASSED' as TestOutcome };
      await expect(catalog.recordRun(syntheticRun('job', 2), bad)).rejects.toMatchObject({ code: 'catalog-error' });

      expect(await catalog.runsForJob('job')).toEqual([]);
      expect(await count('runs')).toBe(0);
      expect(await count('test_results')).toBe(0);
      // The connection is usable again after the rollback.
      await catalog.recordRun(syntheticRun('job', 1), syntheticResults(3));
      expect(await catalog.runsForJob('job')).toHaveLength(1);
    });

    it('a node id listed twice is refused by the primary key, with nothing written', async () => {
      const results = syntheticResults(10);
      await expect(catalog.recordRun(syntheticRun('job', 1), [...results, results[3]!])).rejects.toMatchObject({
        code: 'catalog-error',
        message: expect.stringMatching(/nothing of it was written: .*(PRIMARY KEY|Duplicate key)/i),
      });
      expect(await count('runs')).toBe(0);
    });

    it('a value the catalog would store wrongly is refused before anything is written', async () => {
      await expect(
        catalog.recordRun(syntheticRun('job', 1, { attempt: 0 }), syntheticResults(3)),
      ).rejects.toMatchObject({
        code: 'catalog-error',
        message:
          'cannot record run job#1 of job job: attempt is 0, expected a whole number from 1; nothing was written',
      });
      expect(await count('runs')).toBe(0);
    });
  });

  it('serialises runs recorded by concurrent workers', async () => {
    await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        catalog.recordRun(syntheticRun('parallel', i + 1, { worker: i }), syntheticResults(200)),
      ),
    );
    const stored = await catalog.runsForJob('parallel');
    expect(stored.map((run) => run.attempt)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(await count('test_results')).toBe(1600);
  });
});
