import type { Catalog } from '@repocod/catalog';

/**
 * The key a function is known by across extractions and catalogs (`file::qualname`): a record, a reference's
 * rows and mining's answers are matched by it, never by function id (which a new extraction may change).
 */
export function functionKey(fn: { readonly file: string; readonly qualname: string }): string {
  return `${fn.file}::${fn.qualname}`;
}

/** Mining's answer per function, keyed by `file::qualname` (functionKey): true when it has relevant tests. */
export type MiningOutcomes = ReadonlyMap<string, boolean>;

/** Mining's answers in the catalog (fast mode, every mining key; a function with tests under any key has tests). */
export async function catalogMiningOutcomes(catalog: Catalog, repository: string): Promise<Map<string, boolean>> {
  const outcomes = new Map<string, boolean>();
  const functions = new Map((await catalog.functions(repository)).map((fn) => [fn.functionId, fn]));
  for (const row of await catalog.relevantTests(repository, { mode: 'fast' })) {
    const fn = functions.get(row.functionId);
    if (row.status === 'error' || fn === undefined) continue;
    const key = functionKey(fn);
    outcomes.set(key, outcomes.get(key) === true || row.status === 'tests');
  }
  return outcomes;
}
