import type { RunJob } from '@repocod/runner';
import type { ValidatedTask } from '@repocod/validate';

/** What evaluation needs of a task: validation's (its patches and tests, `repository` the manifest's name). */
export type EvaluatedTask = Omit<ValidatedTask, 'file'>;

/**
 * The job of one prediction: the pre state (code and test pre patches), the model's change (a diff
 * against that state), then gold.test restores the hidden tests, and FAIL_TO_PASS runs once within the
 * manifest's limit, as REPOCOD's evaluator runs it. The gold code is never applied: the model's change
 * stands in for it. Empty patches (a task without hidden tests) are left out.
 */
export function evaluationJob(
  task: EvaluatedTask,
  modelPatch: string,
  timeoutSeconds: number,
  exitFirst = false,
): RunJob {
  return {
    repository: task.repository,
    patches: [task.preCode, task.preTest, modelPatch, task.goldTest].filter((patch) => patch !== ''),
    tests: task.failToPass,
    repeat: 1,
    timeoutSeconds,
    ...(exitFirst ? { pytestArgs: EXIT_FIRST_ARGS } : {}),
  };
}

/**
 * pytest's `-x`, as REPOCOD's evaluator runs (`evaluate --exit-first`): the run stops at the first test
 * that fails, which decides the task (one failing test leaves it unresolved) without running the others.
 */
export const EXIT_FIRST_ARGS: readonly string[] = ['-x'];

/** The model's patch's position (1-based) among the job's patches, as the runner counts them in its errors. */
export function modelPatchPosition(task: Pick<EvaluatedTask, 'preCode' | 'preTest'>): number {
  return [task.preCode, task.preTest].filter((patch) => patch !== '').length + 1;
}
