import type { CompletionSite } from './completion-patch.js';
import type { EvaluationCheckout, EvaluationSpec, SpecSetting, SpecTask } from './evaluation-spec.js';
import { evaluationSpec } from './evaluation-spec.js';
import type { NamedTask } from './match-repocod-targets.js';
import { matchRepocodTargets } from './match-repocod-targets.js';
import type { Prediction, PredictionProblem } from './prediction.js';
import { predictionInstanceId } from './prediction.js';

/** A release's task as REPOCOD's predictions name it: its statement, and tasks.jsonl's names when it has them. */
export interface NamedSpecTask extends SpecTask {
  readonly problemCode: string;
  readonly meta: { readonly file: string; readonly qualname: string } | null;
}

export interface BoundPredictions {
  readonly specs: EvaluationSpec[];
  /** REPOCOD's predictions that name no task of the repository, or several. */
  readonly problems: PredictionProblem[];
}

/**
 * The specs of a repository's predictions among `predictions`: those naming one of its tasks, and
 * REPOCOD's naming the repository, matched with its tasks by function name (match-repocod-targets.ts).
 */
export function bindPredictions(
  predictions: readonly Prediction[],
  tasks: readonly NamedSpecTask[],
  setting: SpecSetting,
): BoundPredictions {
  const ids = new Set(tasks.map((task) => task.instanceId));
  const ofRepository = predictions.filter((prediction) => {
    const id = predictionInstanceId(prediction);
    return id === null
      ? prediction.target.kind === 'repocod' && prediction.target.repository === setting.repository
      : ids.has(id);
  });
  // Names only for REPOCOD's predictions: a release without tasks.jsonl has them from the parsed files.
  const named: NamedTask[] = ofRepository.some((prediction) => prediction.target.kind === 'repocod')
    ? tasks.map((task) => namedTask(task, setting.repository, setting.checkout))
    : [];
  const matched = matchRepocodTargets(ofRepository, named);
  const byId = new Map(tasks.map((task) => [task.instanceId, task]));
  const specs = matched.predictions.flatMap((prediction) => {
    const task = byId.get(predictionInstanceId(prediction) ?? '');
    return task === undefined ? [] : [evaluationSpec(prediction, task, setting)];
  });
  return { specs, problems: matched.problems };
}

function namedTask(task: NamedSpecTask, repository: string, checkout: EvaluationCheckout): NamedTask {
  const site = task.meta === null ? siteOrNull(checkout, task) : null;
  return {
    instanceId: task.instanceId,
    repository,
    file: task.meta?.file ?? site?.file ?? '',
    qualname: task.meta?.qualname ?? site?.qualname ?? '',
    prompt: task.problemCode === '' ? null : promptOf(task.problemCode),
  };
}

/** The task's completion site, or null when it cannot be found (a name then stays empty). */
function siteOrNull(checkout: EvaluationCheckout, task: SpecTask): CompletionSite | null {
  try {
    return checkout.completionSite(task);
  } catch {
    return null;
  }
}

/** The prompt of a problem statement: its first fenced code block, else the statement itself. */
function promptOf(statement: string): string {
  return /```(?:python)?\n([\s\S]*?)```/.exec(statement)?.[1] ?? statement;
}
