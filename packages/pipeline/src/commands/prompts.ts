import type { PrepareOptions } from '../steps/prepare.js';
import { PreparedRepositories } from '../steps/prepare.js';
import type { PromptsStepOptions, PromptsSummary } from '../steps/prompts.js';
import { promptsStep } from '../steps/prompts.js';

export interface PromptsCommandOptions extends PrepareOptions, PromptsStepOptions {}

/** `repocod prompts`: each repository of the release prepared as it comes, its tasks' prompts written. */
export function runPromptsCommand(options: PromptsCommandOptions): Promise<PromptsSummary> {
  return promptsStep(new PreparedRepositories(options), options);
}
