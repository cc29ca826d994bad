import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Catalog, openCatalog } from '@repocod/catalog';
import type { JobResult, PreparedRepository, PytestRun, RunJob, RunStatus } from '@repocod/runner';
import { jobHash } from '@repocod/runner';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CatalogJobStore } from './catalog-job-store.js';

/** The job pool's store over a real catalog (DuckDB): what it records of a job, and what it answers from there. */
const prepared = {
  entry: { name: 'demo', timeoutSeconds: 60 },
  checkout: { baseCommit: 'c0ffee' },
  environment: { key: 'env-1', recipeHash: 'recipe-1' },
} as unknown as PreparedRepository;
const listed = (test: string, repeat = 1): RunJob => ({ repository: 'demo', patches: [], tests: [test], repeat });

/** A listed job's result as the executor gives it: each attempt reports its one test, passed when `ok`. */
function ran(job: RunJob, status: RunStatus = 'ok'): JobResult {
  const nodeId = job.tests === 'all' ? 'all' : job.tests.join();
  const outcome = status === 'ok' ? 'passed' : 'failed';
  const results = [{ nodeId, outcome, duration: 1, message: null }] as const;
  const attempt: PytestRun = {
    status,
    exitCode: null,
    durationSeconds: 2,
    log: nodeId,
    network: '',
    artifact: null,
    results,
  };
  const runs = new Array<PytestRun>(job.repeat ?? 1).fill(attempt);
  return { job, jobHash: jobHash(job, prepared), patchError: null, runs, worker: 1 };
}

let folder: string;
let catalog: Catalog;
beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'catalog-job-store-'));
  catalog = await openCatalog(join(folder, 'catalog.duckdb'));
});
afterAll(async () => {
  await catalog.close();
  rmSync(folder, { recursive: true, force: true });
});

describe('CatalogJobStore', () => {
  it('records each attempt of a job as a run `<job hash>:<attempt>` and answers the job from them', async () => {
    const store = new CatalogJobStore(catalog, prepared);
    const a = ran(listed('t.py::a'));
    await store.record(a);
    expect((await catalog.runsForJob(a.jobHash)).map((run) => run.runId)).toEqual([`${a.jobHash}:1`]);
    expect(await store.stored(listed('t.py::a'))).toEqual(a);
    await store.record(ran(listed('t.py::b', 3), 'timeout'));
    const b = await store.stored(listed('t.py::b', 3));
    expect(b?.runs.map((run) => [run.status, run.results[0]?.outcome])).toEqual([
      ['timeout', 'failed'],
      ['timeout', 'failed'],
      ['timeout', 'failed'],
    ]);
  });

  it('answers nothing for a job it has not every attempt of', async () => {
    const store = new CatalogJobStore(catalog, prepared);
    const partial = ran(listed('t.py::partial', 3));
    await store.record({ ...partial, runs: partial.runs.slice(0, 2) });
    expect(await catalog.runsForJob(partial.jobHash)).toHaveLength(2);
    expect(await store.stored(listed('t.py::partial', 3))).toBeNull();
    expect(await store.stored(listed('t.py::never'))).toBeNull();
    expect(await catalog.runsForJob(jobHash(listed('t.py::never'), prepared))).toHaveLength(0);
  });
});
