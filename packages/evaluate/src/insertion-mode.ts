import { RepocodError } from '@repocod/core';

/**
 * How a completion (a model's output, not a diff) goes into the task's function:
 * - `lenient` (the default) reads the code out of what models write: a fenced block with prose around it, a closing
 *   fence with no opening one, tabs, a whole `def` with or without its decorators, a body at any indentation
 *   (completion-code.ts, completion-patch.ts);
 * - `repocod` is REPOCOD's evaluator's rule, verbatim (repocod-insertion.ts), for numbers comparable with its tables.
 */
export type InsertionMode = 'lenient' | 'repocod';

export const INSERTION_MODES: readonly InsertionMode[] = ['lenient', 'repocod'];

/** `--insert MODE` read, or a usage error naming the modes. */
export function parseInsertionMode(value: string, flag = '--insert'): InsertionMode {
  const mode = INSERTION_MODES.find((known) => known === value);
  if (mode === undefined)
    throw new RepocodError('usage', `${flag} ${value}: not an insertion mode (known: ${INSERTION_MODES.join(', ')})`);
  return mode;
}
