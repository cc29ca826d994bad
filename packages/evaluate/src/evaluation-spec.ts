import { contentHash } from '@repocod/core';
import type { JobResult, RunJob } from '@repocod/runner';
import type { CompletionSite } from './completion-patch.js';
import { completionPatch } from './completion-patch.js';
import type { InsertionMode } from './insertion-mode.js';
import type { EvaluatedTask } from './evaluation-job.js';
import { evaluationJob, modelPatchPosition } from './evaluation-job.js';
import type { EvaluationGrade } from './evaluation-outcome.js';
import { gradeEvaluation } from './evaluation-outcome.js';
import type { Prediction } from './prediction.js';

/** Bumped when what an evaluation decides changes: evaluations stored under an older version are redone. */
export const EVALUATION_VERSION = 1;

/** What a spec reads of a release's task (publish's ReleaseTask has all of it): its patches and tests. */
export type SpecTask = Omit<EvaluatedTask, 'repository'>;

/**
 * What a spec needs of the prepared checkout of the task's repository, and nothing of how it is read:
 * its base commit, its environment's key, and where a task's completion goes in its files.
 */
export interface EvaluationCheckout {
  readonly baseCommit: string;
  readonly environmentKey: string;
  /** The task's completion site in the checkout's files; throws when there is none (an Error for people). */
  completionSite(task: SpecTask): CompletionSite;
}

/** Where a spec's task runs: its repository (the manifest's name) and checkout, and how its job runs. */
export interface SpecSetting {
  readonly repository: string;
  readonly checkout: EvaluationCheckout;
  /** The limit of the job's run. */
  readonly timeoutSeconds: number;
  /** Stop the run at the first failing test (`pytest -x`). */
  readonly exitFirst: boolean;
  /** How a completion goes into the function (insertion-mode.ts); default lenient. */
  readonly insertion?: InsertionMode;
}

/**
 * A prediction bound to its task (as SWE-bench's TestSpec): everything needed to run and grade it,
 * computed from the task, the prediction and the checkout alone, a pure value.
 */
export interface EvaluationSpec {
  readonly prediction: Prediction;
  /** The task, `repository` the manifest's name. */
  readonly task: EvaluatedTask;
  /** The hash of all that decides the outcome: an evaluation stored under the same key is kept. */
  readonly evaluationKey: string;
  /** The model's change as a diff of the pre state, or null (empty). */
  readonly modelPatch: string | null;
  /** Set when the prediction could not be turned into a job (no site for a completion, another base commit). */
  readonly failure: EvaluationGrade | null;
  /** The runner's job (evaluation-job.ts), or null when none runs: a failure, or an empty change. */
  readonly job: RunJob | null;
  /** The job stops at the first failing test: its result is graded so (evaluation-outcome.ts). */
  readonly exitFirst: boolean;
}

/** The spec of one prediction for its task. */
export function evaluationSpec(prediction: Prediction, task: SpecTask, setting: SpecSetting): EvaluationSpec {
  const { checkout } = setting;
  const evaluated = evaluatedTask(task, setting.repository);
  const spec = (modelPatch: string | null, failure: EvaluationGrade | null): EvaluationSpec => ({
    prediction,
    task: evaluated,
    evaluationKey: evaluationKey(prediction, task, setting, { modelPatch, failure: failure?.detail ?? null }),
    modelPatch,
    failure,
    job:
      failure === null && modelPatch !== null
        ? evaluationJob(evaluated, modelPatch, setting.timeoutSeconds, setting.exitFirst)
        : null,
    exitFirst: setting.exitFirst,
  });
  if (task.baseCommit !== checkout.baseCommit)
    return spec(null, {
      outcome: 'error',
      detail:
        `the task's base commit ${task.baseCommit.slice(0, 12)} is not the prepared checkout's ` +
        `${checkout.baseCommit.slice(0, 12)}: evaluate with the manifest and sources the release was built with`,
      failingTests: [],
    });
  const { change } = prediction;
  if (change.kind === 'empty') return spec(null, null);
  // A diff pasted from a JSON string often lost its last newline, which git apply takes for a corrupt patch.
  if (change.kind === 'patch') return spec(change.patch.endsWith('\n') ? change.patch : `${change.patch}\n`, null);
  let site: CompletionSite;
  try {
    site = checkout.completionSite(task);
  } catch (error) {
    const detail = `the completion has no place to go: ${error instanceof Error ? error.message : String(error)}`;
    return spec(null, { outcome: 'error', detail, failingTests: [] });
  }
  return spec(completionPatch(site, change.completion, setting.insertion)?.patch ?? null, null);
}

/** The grade of a spec without a job: its failure, else `empty`. */
export function gradeWithoutRun(spec: Pick<EvaluationSpec, 'failure'>): EvaluationGrade {
  return spec.failure ?? { outcome: 'empty', detail: 'the prediction is empty', failingTests: [] };
}

/** The grade of the result of a spec's job (evaluation-outcome.ts). */
export function gradeSpecRun(
  spec: Pick<EvaluationSpec, 'task' | 'exitFirst'>,
  result: Pick<JobResult, 'patchError' | 'runs'>,
): EvaluationGrade {
  return gradeEvaluation(spec.task, result, modelPatchPosition(spec.task), { exitFirst: spec.exitFirst });
}

function evaluationKey(
  prediction: Prediction,
  task: SpecTask,
  setting: SpecSetting,
  bound: { readonly modelPatch: string | null; readonly failure: string | null },
): string {
  return contentHash(
    JSON.stringify({
      version: EVALUATION_VERSION,
      change: prediction.change,
      modelPatch: bound.modelPatch,
      failure: bound.failure,
      task: [task.preCode, task.preTest, task.goldCode, task.goldTest, task.failToPass].map((part) =>
        contentHash(JSON.stringify(part)),
      ),
      environment: setting.checkout.environmentKey,
      timeoutSeconds: setting.timeoutSeconds,
      ...(setting.exitFirst ? { exitFirst: setting.exitFirst } : {}),
      // Only a completion depends on it, and the default leaves the keys of earlier runs as they were.
      ...(setting.insertion === 'repocod' && prediction.change.kind === 'completion' ? { insertion: 'repocod' } : {}),
    }),
  );
}

function evaluatedTask(task: SpecTask, repository: string): EvaluatedTask {
  return {
    instanceId: task.instanceId,
    repository,
    baseCommit: task.baseCommit,
    preCode: task.preCode,
    preTest: task.preTest,
    goldCode: task.goldCode,
    goldTest: task.goldTest,
    failToPass: task.failToPass,
  };
}
