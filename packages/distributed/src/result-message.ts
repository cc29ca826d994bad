import type { JobResult, PytestRun, RunJob, RunStatus, TestOutcome } from '@repocod/runner';
import { WireFields } from './wire-fields.js';

export const RESULT_FORMAT = 'repocod-result/1';

/** Which worker process ran a job: shown to the user, never part of what a result means. */
export interface WorkerIdentity {
  /** `<host>:<pid>:<slot>`: unique among the workers on one Redis. */
  readonly id: string;
  readonly host: string;
  readonly pid: number;
  /** Jobs it runs at once. */
  readonly concurrency: number;
}

/** What a worker returns for a job: the runner's own result, and who ran it. */
export interface ResultMessage {
  readonly format: typeof RESULT_FORMAT;
  readonly jobHash: string;
  readonly worker: WorkerIdentity;
  readonly result: JobResult;
}

const STATUSES: readonly RunStatus[] = ['ok', 'collection-error', 'timeout', 'crashed', 'infra-error'];
const OUTCOMES: readonly TestOutcome[] = ['passed', 'failed', 'error', 'skipped', 'xfailed', 'xpassed', 'missing'];

/**
 * A job's return value as a ResultMessage; anything else is a `job-malformed` error naming the field.
 * The job inside is the coordinator's own (results never change what was asked).
 */
export function readResultMessage(data: unknown, job: RunJob, queueJobId: string): ResultMessage {
  const fields = new WireFields(`result of job ${queueJobId}`, data);
  fields.exactly(
    'format',
    RESULT_FORMAT,
    'another format was made by another repocod version: run the same version on the coordinator and the workers',
  );
  const worker = fields.object('worker');
  const result = fields.object('result');
  return {
    format: RESULT_FORMAT,
    jobHash: fields.string('jobHash'),
    worker: {
      id: worker.string('id'),
      host: worker.string('host'),
      pid: worker.number('pid'),
      concurrency: worker.number('concurrency'),
    },
    result: {
      job,
      jobHash: result.string('jobHash'),
      patchError: result.stringOrNull('patchError'),
      worker: result.number('worker'),
      runs: result.list('runs').map(readRun),
    },
  };
}

function readRun(run: WireFields): PytestRun {
  return {
    status: run.oneOf('status', STATUSES),
    exitCode: run.numberOrNull('exitCode'),
    durationSeconds: run.number('durationSeconds'),
    log: run.string('log'),
    network: run.string('network'),
    artifact: run.stringOrNull('artifact'),
    results: run.list('results').map((test) => ({
      nodeId: test.string('nodeId'),
      outcome: test.oneOf('outcome', OUTCOMES),
      duration: test.number('duration'),
      message: test.stringOrNull('message'),
    })),
  };
}
