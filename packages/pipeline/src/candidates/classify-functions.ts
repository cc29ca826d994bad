import type { CatalogFunction } from '@repocod/catalog';
import type { LevelMode, TaskLevels } from '@repocod/core';
import { DEFAULT_LEVEL_MODE } from '@repocod/core';
import type { ContextClassification, RepositoryIndex } from '@repocod/tasks';
import { classifyContext, classifyLevels } from '@repocod/tasks';

/** A function's labels under every level mode, and the `deps` classifier's dependency list. */
export interface FunctionLevels {
  readonly levels: TaskLevels;
  readonly dependencies: ContextClassification['dependencies'];
}

/** The labels of each function (by function id). */
export function classifyFunctions(
  index: RepositoryIndex,
  functions: readonly CatalogFunction[],
): Map<string, FunctionLevels> {
  return new Map(
    functions.map((fn) => [
      fn.functionId,
      { levels: classifyLevels(index, fn), dependencies: classifyContext(index, fn).dependencies },
    ]),
  );
}

/**
 * The level mode a repository's tasks are labelled with: the one asked for (`--levels`), else its
 * manifest's `levels`, else DEFAULT_LEVEL_MODE (a curator's own project: `deps`).
 */
export function levelModeOf(entry: { readonly levels?: LevelMode }, asked?: LevelMode): LevelMode {
  return asked ?? entry.levels ?? DEFAULT_LEVEL_MODE;
}
