import type { ContextLevel, Dependency } from '@repocod/core';

export { type ContextLevel, CONTEXT_LEVELS } from '@repocod/core';

// The dependency's vocabulary is core's: the catalog stores it and the curator's views read it.
export type { Dependency, DependencyVia } from '@repocod/core';

/**
 * none → self-contained; all in the target's own file → file-level; any elsewhere → repo-level.
 * The target itself must already be left out of `dependencies` (recursion is not context).
 */
export function levelOf(targetFile: string, dependencies: readonly Pick<Dependency, 'file'>[]): ContextLevel {
  if (dependencies.length === 0) return 'self-contained';
  return dependencies.every((dependency) => dependency.file === targetFile) ? 'file-level' : 'repo-level';
}
