import type { CatalogFunction } from '@repocod/catalog';
import type { ContextLevel, Dependency, RepositoryIndex } from '@repocod/tasks';
import { classifyContext } from '@repocod/tasks';

/** The context level of each function (by function id), with the dependencies that gave it. */
export function classifyFunctions(
  index: RepositoryIndex,
  functions: readonly CatalogFunction[],
): Map<string, { level: ContextLevel; dependencies: readonly Dependency[] }> {
  return new Map(functions.map((fn) => [fn.functionId, classifyContext(index, fn)]));
}
