import type { Catalog } from '@repocod/catalog';
import type { PrepareOptions } from '../steps/prepare.js';
import { PreparedRepositories } from '../steps/prepare.js';
import type { ValidateStepOptions, ValidateSummary } from '../steps/validate.js';
import { validateStep } from '../steps/validate.js';

export interface ValidateCommandOptions extends PrepareOptions, ValidateStepOptions {}

/** `repocod validate`: each repository of the selection made or reused as it comes, its tasks validated. */
export async function runValidateCommand(catalog: Catalog, options: ValidateCommandOptions): Promise<ValidateSummary> {
  return validateStep(catalog, new PreparedRepositories(options), options);
}
