import type { Catalog } from '@repocod/catalog';
import type { EvaluateStepOptions, EvaluateSummary } from '../steps/evaluate.js';
import { evaluateStep } from '../steps/evaluate.js';
import type { PrepareOptions } from '../steps/prepare.js';
import { PreparedRepositories } from '../steps/prepare.js';

export interface EvaluateCommandOptions extends PrepareOptions, EvaluateStepOptions {}

/** `repocod evaluate`: each repository with predictions made or reused as it comes, its predictions evaluated. */
export async function runEvaluateCommand(catalog: Catalog, options: EvaluateCommandOptions): Promise<EvaluateSummary> {
  return evaluateStep(catalog, new PreparedRepositories(options), options);
}
