import { RepocodError } from '@repocod/core';

/**
 * The prompt settings of REPOCOD's paper (§3) that `repocod prompts` writes:
 * - `baseline`: the target's signature and docstring only;
 * - `current-file`: the whole file with the target's body removed, the context before and after the target
 *   (REPOCOD's inference example's template);
 * - `bm25` and `dense`: functions of the repository retrieved with the signature and docstring as the query, given
 *   with their file paths and whole text (signature, docstring, body), from a corpus that never holds the solution
 *   (function-corpus.ts); dense needs an embedding command;
 * - `callees`: the functions the canonical solution calls, and the last 1,024 tokens of the file before the target.
 */
export const PROMPT_SETTINGS = ['baseline', 'current-file', 'bm25', 'dense', 'callees'] as const;
export type PromptSetting = (typeof PROMPT_SETTINGS)[number];

/** The settings that give functions of the repository before the target. */
export type FunctionsSetting = Extract<PromptSetting, 'bm25' | 'dense' | 'callees'>;

export function givesFunctions(setting: PromptSetting): setting is FunctionsSetting {
  return setting === 'bm25' || setting === 'dense' || setting === 'callees';
}

/** `--setting NAME` read, or a usage error naming the settings. */
export function parsePromptSetting(value: string): PromptSetting {
  const setting = PROMPT_SETTINGS.find((known) => known === value);
  if (setting === undefined)
    throw new RepocodError('usage', `--setting ${value}: not a prompt setting (known: ${PROMPT_SETTINGS.join(', ')})`);
  return setting;
}
