import type { CatalogFunction } from '@repocod/catalog';
import type { ContextLevel, Dependency } from '@repocod/tasks';
import { buildRepositoryIndex, classifyContext } from '@repocod/tasks';

/** The context level of each function (by function id), with the dependencies that gave it. */
export function classifyFunctions(parser: Parameters<typeof buildRepositoryIndex>[0], texts: ReadonlyMap<string, string>, functions: readonly CatalogFunction[]): Map<string, { level: ContextLevel; dependencies: readonly Dependency[] }> {
  const index = buildRepositoryIndex(parser, texts);
  return new Map(functions.map((fn) => [fn.functionId, classifyContext(index, fn)]));
}
