import type { CatalogFunction } from '@repocod/catalog';
import type { PreparedRepository } from '@repocod/runner';
import { catalogInstanceId } from '@repocod/runner';
import { uniqueInstanceIds } from '@repocod/tasks';

/**
 * The task rows' `repo` and the ids' `owner__name`: the manifest's `repo:`, else `owner/name` from its url (also
 * under --source); a local project without either (the demo) keeps its manifest name, so its ids stay `demo-…`.
 */
export function taskRepoName(prepared: PreparedRepository): string {
  if (prepared.entry.repo !== undefined) return prepared.entry.repo;
  const url = prepared.entry.url ?? prepared.entry.upstream ?? null;
  const match = url === null ? null : /([^/:]+)\/([^/]+?)(?:\.git)?\/?$/.exec(url);
  return match === null ? prepared.entry.name : `${match[1]}/${match[2]}`;
}

/**
 * The instance id of each function's task, by function id, made unique over every given function
 * (the repository's candidates): a task's id must not depend on which functions got relevant tests,
 * nor on how far Lite-first mining went, or twins (one qualname defined twice in a file) would be
 * named `…-L42` in one run and not in another.
 */
export function candidateInstanceIds(
  repo: string,
  functions: readonly CatalogFunction[],
  packageRoot: string,
): Map<string, string> {
  const unique = new Map(functions.map((fn) => [fn.functionId, fn]));
  const ids = uniqueInstanceIds(
    repo,
    [...unique.values()].map((fn) => ({
      functionId: fn.functionId,
      file: fn.file,
      qualname: fn.qualname,
      line: fn.signatureSpan.start,
    })),
    packageRoot,
  );
  return new Map([...ids].map(([fn, id]) => [fn.functionId, id]));
}

/**
 * The instance ids of a prepared repository's tasks in the catalog: candidateInstanceIds over `functions`, each
 * with the era of an entry --at moved off its manifest's commit (`…@2ac89889f4cc`, catalog-name.ts).
 */
export function preparedInstanceIds(
  prepared: PreparedRepository,
  functions: readonly CatalogFunction[],
): Map<string, string> {
  const ids = candidateInstanceIds(taskRepoName(prepared), functions, prepared.entry.packageRoot);
  return new Map([...ids].map(([functionId, id]) => [functionId, catalogInstanceId(id, prepared.entry)]));
}
