import type { RunRecord, RunStore, StoredRun, TestResultRecord } from '@repocod/catalog';
import { contentHash } from '@repocod/core';
import type { JobResult, PreparedRepository, PytestRun, RunJob } from '@repocod/runner';
import { catalogName, jobHash } from '@repocod/runner';

/**
 * Runner jobs in the catalog: each finished job's runs go to `runs`/`test_results` under run ids
 * `<job hash>:<attempt>`, and the same job again can be answered from there.
 */

/** A job's stored attempts as a result, when all of them are there; null when the job must run. */
export function storedJobResult(
  job: RunJob,
  prepared: PreparedRepository,
  stored: readonly StoredRun[],
): JobResult | null {
  const repeat = job.repeat ?? 1;
  if (stored.length < repeat) return null;
  const attempts = stored.slice(0, repeat);
  const patchError = attempts[0]?.status === 'patch-error' ? attempts[0].log : null;
  const runs: PytestRun[] =
    patchError !== null
      ? []
      : attempts.map((run) => ({
          status: run.status === 'patch-error' ? 'infra-error' : run.status,
          exitCode: run.exitCode,
          durationSeconds: run.durationSeconds,
          log: run.log,
          network: run.network,
          artifact: null,
          results: orderLike(job, run.results).map((test) => ({
            nodeId: test.nodeId,
            outcome: test.outcome,
            duration: test.durationSeconds,
            message: test.message,
          })),
        }));
  return { job, jobHash: jobHash(job, prepared), patchError, runs, worker: attempts[0]?.worker ?? 0 };
}

/** The catalog gives results by node id; a listed job wants them in its own order. */
function orderLike(job: RunJob, results: readonly TestResultRecord[]): TestResultRecord[] {
  if (job.tests === 'all') return [...results];
  const byId = new Map(results.map((result) => [result.nodeId, result]));
  return job.tests.flatMap((id) => {
    const result = byId.get(id);
    return result === undefined ? [] : [result];
  });
}

/** Stores every run of a finished job (a patch that did not apply is one `patch-error` run). */
export async function recordJobResult(
  catalog: RunStore,
  prepared: PreparedRepository,
  result: JobResult,
): Promise<void> {
  const finishedAt = new Date();
  const base = {
    jobHash: result.jobHash,
    repository: catalogName(prepared.entry),
    baseCommit: prepared.checkout.baseCommit,
    environmentKey: prepared.environment.key,
    recipeHash: prepared.environment.recipeHash,
    patchesHash: contentHash(JSON.stringify(result.job.patches)),
    testsHash: contentHash(JSON.stringify(result.job.tests === 'all' ? 'all' : [...result.job.tests].sort())),
    worker: result.worker,
  };
  if (result.patchError !== null) {
    const record: RunRecord = {
      ...base,
      runId: `${result.jobHash}:1`,
      attempt: 1,
      status: 'patch-error',
      exitCode: null,
      durationSeconds: 0,
      network: '',
      log: result.patchError,
      startedAt: finishedAt,
      finishedAt,
    };
    await catalog.recordRun(record, []);
    return;
  }
  for (const [index, run] of result.runs.entries()) {
    const startedAt = new Date(finishedAt.getTime() - run.durationSeconds * 1000);
    const record: RunRecord = {
      ...base,
      runId: `${result.jobHash}:${index + 1}`,
      attempt: index + 1,
      status: run.status,
      exitCode: run.exitCode,
      durationSeconds: run.durationSeconds,
      network: run.network,
      log: run.log,
      startedAt,
      finishedAt,
    };
    // A run may report a node id twice (a test listed twice); the catalog keeps one row per id.
    const unique = new Map(
      run.results.map((test) => [
        test.nodeId,
        { nodeId: test.nodeId, outcome: test.outcome, durationSeconds: test.duration, message: test.message },
      ]),
    );
    await catalog.recordRun(record, [...unique.values()]);
  }
}
