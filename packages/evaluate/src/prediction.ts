/**
 * A model's prediction for one task, in the forms people have them:
 * - SWE-bench's (`instance_id`, `model_name_or_path`, `model_patch`): a diff against the pre state;
 * - a completion (`instance_id`, `completion`): a whole `def …` that replaces the function, or a body
 *   that goes after the prompt's lines, as REPOCOD's evaluator splices it;
 * - REPOCOD's own output (`{repo: {repo_id: {function_name, prompt, output}}}`), whose target is named by
 *   repository and function name and matched with a task later (match-repocod-targets.ts).
 */
export type PredictionChange =
  | { readonly kind: 'patch'; readonly patch: string }
  | { readonly kind: 'completion'; readonly completion: string }
  /** No change at all (an empty or missing patch or completion): graded `empty`, never run. */
  | { readonly kind: 'empty' };

export type PredictionTarget =
  | { readonly kind: 'instance'; readonly instanceId: string }
  | {
      readonly kind: 'repocod';
      /** REPOCOD's repository key (`astropy`, `plotly.py`, …) and its function name (`PairGrid.__init__`). */
      readonly repository: string;
      readonly functionName: string;
      readonly prompt: string | null;
    };

export interface Prediction {
  readonly target: PredictionTarget;
  /** `model_name_or_path`; for forms without one, the predictions file's name. */
  readonly model: string;
  readonly change: PredictionChange;
  /** Where it was read: `file:line` (JSON lines), `file: item N` (a JSON list) or `file: repo/id`. */
  readonly source: string;
}

/** A prediction that could not be read: where, which field, and what is wrong. */
export interface PredictionProblem {
  readonly source: string;
  readonly field: string | null;
  readonly message: string;
}

export interface ReadPredictions {
  readonly predictions: readonly Prediction[];
  readonly problems: readonly PredictionProblem[];
}

/** The instance id a prediction names, or null when it names a REPOCOD target not matched yet. */
export function predictionInstanceId(prediction: Pick<Prediction, 'target'>): string | null {
  return prediction.target.kind === 'instance' ? prediction.target.instanceId : null;
}
