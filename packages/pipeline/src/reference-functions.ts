import { join } from 'node:path';
import type { Catalog } from '@repocod/catalog';
import type { ManifestEntry } from '@repocod/runner';
import { functionKey } from './candidate-mode-counts.js';
import { DEFAULT_RECORD_FOLDER } from './rebuild-record-files.js';
import type { ResolvedReferenceRow } from './reference-resolution.js';
import { resolveReference } from './reference-resolution.js';

/** What a reference asks of one repository: the functions its rows resolve to, and the rows that resolve to none. */
export interface ReferenceFunctions {
  readonly reference: string;
  /** The rows of the repository. */
  readonly rows: number;
  /** `file::qualname` of every function a row resolved to (two rows may name one function). */
  readonly keys: ReadonlySet<string>;
  /** How many of them fail our candidate filter (kept: REPOCOD chose them). */
  readonly outsideCandidates: number;
  readonly unresolved: readonly ResolvedReferenceRow[];
}

/**
 * The functions `--reference NAME` makes the candidates of a repository's stage (mine, tasks): exactly
 * those its rows resolve to at the extraction in the catalog, whether or not our candidate filter admits
 * them. Rows of other repositories are not this stage's; a row of this one that does not resolve is
 * returned for the stage to report (`repocod reference show NAME --unresolved` says why).
 */
export async function referenceFunctions(
  catalog: Catalog,
  reference: string,
  entry: ManifestEntry,
  projectRoot: string,
): Promise<ReferenceFunctions> {
  const resolution = await resolveReference(catalog, reference, {
    repositories: [entry],
    recordsFolder: join(projectRoot, DEFAULT_RECORD_FOLDER),
  });
  const ofRepository = resolution.rows.filter((row) => row.repository === entry.name);
  const keys = new Set<string>();
  let outsideCandidates = 0;
  for (const { resolution: result } of ofRepository) {
    if (result.status !== 'resolved') continue;
    const key = functionKey(result.function);
    if (!keys.has(key) && result.outsideCandidates) outsideCandidates++;
    keys.add(key);
  }
  return {
    reference,
    rows: ofRepository.length,
    keys,
    outsideCandidates,
    unresolved: ofRepository.filter((row) => row.resolution.status === 'unresolved'),
  };
}
