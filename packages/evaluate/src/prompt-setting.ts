import { RepocodError } from '@repocod/core';

/**
 * The prompt settings of REPOCOD's paper (§3) that `repocod prompts` writes:
 * - `baseline`: the target's signature and docstring only;
 * - `current-file`: the whole file with the target's body removed, the context before and after the target
 *   (REPOCOD's inference example's template).
 * Its RAG settings (BM25, dense) and Callees are not written yet.
 */
export type PromptSetting = 'baseline' | 'current-file';

export const PROMPT_SETTINGS: readonly PromptSetting[] = ['baseline', 'current-file'];

/** `--setting NAME` read, or a usage error naming the settings. */
export function parsePromptSetting(value: string): PromptSetting {
  const setting = PROMPT_SETTINGS.find((known) => known === value);
  if (setting === undefined)
    throw new RepocodError(
      'usage',
      `--setting ${value}: not a prompt setting (known: ${PROMPT_SETTINGS.join(', ')}; REPOCOD's bm25, dense and \
callees are not written yet)`,
    );
  return setting;
}
