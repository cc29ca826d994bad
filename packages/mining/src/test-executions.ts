import type { JobResult, RunJob } from '@repocod/runner';
import { mutationRecords } from './mutation-artifact.js';

/**
 * The tests a job's processes executed, summed over them (a test run three times counts three): the reported
 * outcomes of a plain run, and for an in-process mutation batch the outcomes of every mutation in it, since one
 * process runs many functions' candidates. A collection reports no outcome, so it executes none.
 */
export function testExecutions(job: RunJob, result: JobResult): number {
  const inProcess = job.plugins?.includes('repocod_mutate') === true;
  return result.runs.reduce(
    (sum, run) =>
      sum +
      (inProcess
        ? mutationRecords(run).reduce((total, record) => total + (record.status === 'ok' ? record.outcomes.size : 0), 0)
        : run.results.filter((test) => test.outcome !== 'missing').length),
    0,
  );
}
