import type { Catalog, CatalogFunction } from '@repocod/catalog';
import type { ReferenceProblem, ReferenceRow, ResolvableFunction, RowResolution } from '@repocod/reference';
import { manifestNameOf, resolveReferenceRow } from '@repocod/reference';
import type { ManifestEntry } from '@repocod/runner';
import { catalogMiningOutcomes, functionKey } from '../candidates/mining-outcomes.js';
import { storedReferenceRows } from './reference-add.js';
import { recordMiningOutcomes } from '../records/record-mining-outcomes.js';

export interface ResolvedReferenceRow {
  readonly row: ReferenceRow;
  /** The manifest's name of the row's repository, null when the manifest has none. */
  readonly repository: string | null;
  readonly resolution: RowResolution;
}

export interface ReferenceResolution {
  readonly name: string;
  readonly source: string;
  readonly form: string | null;
  readonly rows: readonly ResolvedReferenceRow[];
  /** The records that could not be read (stored with the reference). */
  readonly problems: readonly ReferenceProblem[];
}

/**
 * Every row of a stored reference resolved to a function of the catalog's extraction (the reference
 * package's rules). A repository's functions are read once, with whether mining found relevant tests
 * for each: the catalog's mining, or the committed records (`recordsFolder`) for candidates the
 * catalog never mined.
 */
export async function resolveReference(
  catalog: Catalog,
  name: string,
  options: { readonly repositories: readonly ManifestEntry[]; readonly recordsFolder: string },
): Promise<ReferenceResolution> {
  const { reference, rows, problems } = await storedReferenceRows(catalog, name);
  const manifest = options.repositories.map((entry) => ({ name: entry.name, url: entry.url }));
  const extracted = new Set((await catalog.repositories()).map((repository) => repository.name));
  const functionsOf = new Map<string, ResolvableFunction[] | null>();
  const resolvable = async (repository: string): Promise<ResolvableFunction[] | null> => {
    if (!functionsOf.has(repository))
      functionsOf.set(
        repository,
        extracted.has(repository) ? await resolvableFunctions(catalog, repository, options.recordsFolder) : null,
      );
    return functionsOf.get(repository) ?? null;
  };
  const resolved: ResolvedReferenceRow[] = [];
  for (const row of rows) {
    const repository = manifestNameOf(row.repository, manifest);
    const entry = options.repositories.find((candidate) => candidate.name === repository);
    const resolution = resolveReferenceRow(row, {
      repository,
      functions: repository === null ? null : await resolvable(repository),
      baseCommit: entry?.baseCommit ?? null,
      knownRepositories: manifest.map((known) => known.name),
    });
    resolved.push({ row, repository, resolution });
  }
  return { name: reference.name, source: reference.source, form: reference.form, rows: resolved, problems };
}

async function resolvableFunctions(
  catalog: Catalog,
  repository: string,
  recordsFolder: string,
): Promise<ResolvableFunction[]> {
  const functions = await catalog.functions(repository);
  const candidates = functions.filter((fn) => fn.isCandidate);
  const outcomes = new Map([
    ...(await catalogMiningOutcomes(catalog, repository)),
    ...(recordMiningOutcomes(recordsFolder, repository, candidates) ?? []),
  ]);
  return functions.map((fn) => resolvableFunction(fn, outcomes.get(functionKey(fn)) ?? null));
}

export function resolvableFunction(fn: CatalogFunction, hasRelevantTests: boolean | null): ResolvableFunction {
  return {
    file: fn.file,
    qualname: fn.qualname,
    isCandidate: fn.isCandidate,
    full: fn.slices.full,
    prompt: fn.slices.prompt,
    solution: fn.slices.solution,
    definitionStart: fn.definitionSpan.start,
    definitionEnd: fn.definitionSpan.end,
    solutionStart: (fn.docstringSpan ?? fn.signatureSpan).end + 1,
    hasRelevantTests,
  };
}
