import type { Catalog } from '@repocod/catalog';
import type { PrepareOptions } from '../steps/prepare.js';
import { prepareStep } from '../steps/prepare.js';
import type { RunTestsStepOptions, RunTestsSummary } from '../steps/run-tests.js';
import { runTestsStep } from '../steps/run-tests.js';

export interface RunTestsOptions extends PrepareOptions, RunTestsStepOptions {
  readonly repository: string;
}

/** `repocod run`: the checkout and its environment made or reused, then the requested tests (see runTestsStep). */
export async function runTestsCommand(catalog: Catalog, options: RunTestsOptions): Promise<RunTestsSummary> {
  return runTestsStep(catalog, await prepareStep(options.repository, options), options);
}
