import type { TestOutcome } from '@repocod/core';
import type { JobResult } from '@repocod/runner';
import type { EvaluatedTask } from './evaluation-job.js';

/**
 * What became of one prediction. Only `resolved` and `unresolved` say something about the model's code
 * running; the others are kept apart, never counted as an unresolved run: `empty` (no change given),
 * `patch-failed` (the change does not apply to the pre state, or the hidden tests no longer apply on
 * top of it), `timeout` (the tests outlasted the limit) and `error` (the harness could not run it: the
 * task's own patches do not apply, the environment is broken).
 */
export type EvaluationOutcome = 'resolved' | 'unresolved' | 'patch-failed' | 'empty' | 'timeout' | 'error';

export const EVALUATION_OUTCOMES: readonly EvaluationOutcome[] = [
  'resolved',
  'unresolved',
  'patch-failed',
  'empty',
  'timeout',
  'error',
];

export interface FailingTest {
  readonly nodeId: string;
  readonly outcome: TestOutcome;
}

export interface EvaluationGrade {
  readonly outcome: EvaluationOutcome;
  /** One line for people: why it is not resolved, or how many tests passed. */
  readonly detail: string;
  /** The FAIL_TO_PASS tests that did not pass (missing: not run, e.g. not collected). */
  readonly failingTests: readonly FailingTest[];
}

/** Outcomes a FAIL_TO_PASS test may have in a resolved task: REPOCOD allows skips and expected failures. */
const ACCEPTED: ReadonlySet<TestOutcome> = new Set<TestOutcome>(['passed', 'skipped', 'xfailed', 'xpassed']);

const PATCH_ERROR = /^patch (\d+) of (\d+) does not apply/;

/**
 * The grade of a prediction's job (evaluation-job.ts): resolved iff every FAIL_TO_PASS test passed
 * (skips and xfails allowed). A patch at or after the model's position that does not apply is the
 * model's (its change, or the hidden tests it conflicts with); one before it is the harness's. A
 * failed rebuild of compiled sources can only come from the model's change (a task's own patches touch
 * Python code alone), so it is unresolved.
 */
export function gradeEvaluation(
  task: Pick<EvaluatedTask, 'failToPass'>,
  result: Pick<JobResult, 'patchError' | 'runs'>,
  modelPosition: number,
  options: { readonly exitFirst?: boolean } = {},
): EvaluationGrade {
  if (result.patchError !== null) {
    const failed = PATCH_ERROR.exec(result.patchError);
    const firstLine = result.patchError.split('\n')[0] ?? '';
    if (failed === null) return { outcome: 'unresolved', detail: `the build failed: ${firstLine}`, failingTests: [] };
    const position = Number(failed[1]);
    if (position < modelPosition)
      return { outcome: 'error', detail: `the task's pre patches do not apply: ${firstLine}`, failingTests: [] };
    const what = position === modelPosition ? "the model's patch" : "the hidden tests, on top of the model's patch,";
    return { outcome: 'patch-failed', detail: `${what} does not apply: ${firstLine}`, failingTests: [] };
  }
  const run = result.runs[0];
  if (run === undefined) return { outcome: 'error', detail: 'the job made no run', failingTests: [] };
  if (run.status === 'timeout')
    return {
      outcome: 'timeout',
      detail: `the tests ran past the limit (${run.durationSeconds.toFixed(0)} s)`,
      failingTests: [],
    };
  if (run.status === 'infra-error')
    return { outcome: 'error', detail: `pytest could not run: ${lastLine(run.log)}`, failingTests: [] };
  if (task.failToPass.length === 0)
    return { outcome: 'error', detail: 'the task lists no FAIL_TO_PASS test', failingTests: [] };
  const outcomes = new Map(run.results.map((test) => [test.nodeId, test.outcome]));
  const failingTests = task.failToPass.flatMap((nodeId): FailingTest[] => {
    const outcome = outcomes.get(nodeId) ?? 'missing';
    return ACCEPTED.has(outcome) ? [] : [{ nodeId, outcome }];
  });
  const total = task.failToPass.length;
  if (failingTests.length === 0)
    return { outcome: 'resolved', detail: `${total} of ${total} tests pass`, failingTests };
  const first = failingTests[0] as FailingTest;
  const collection = run.status === 'collection-error' ? ' (collection error)' : '';
  const notRun = failingTests.filter((test) => test.outcome === 'missing').length;
  // pytest runs the tests in its own order, not FAIL_TO_PASS's: the one it stopped at is the one that ran and failed.
  const stoppedAt = failingTests.find((test) => test.outcome !== 'missing');
  if (options.exitFirst === true && stoppedAt !== undefined)
    return {
      outcome: 'unresolved',
      detail:
        `stopped at the first failing test${collection}, ${stoppedAt.nodeId}: ${stoppedAt.outcome} (${notRun} of ` +
        `${total} not run)`,
      failingTests,
    };
  return {
    outcome: 'unresolved',
    detail:
      `${failingTests.length} of ${total} tests do not pass${collection}, first ` + `${first.nodeId}: ${first.outcome}`,
    failingTests,
  };
}

function lastLine(log: string): string {
  return log.trim().split('\n').at(-1) ?? '';
}
