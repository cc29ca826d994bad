import { join } from 'node:path';
import type { Catalog } from '@repocod/catalog';
import { manifestNameOf } from '@repocod/reference';
import type { ManifestEntry } from '@repocod/runner';
import { functionKey } from '../candidates/mining-outcomes.js';
import { storedReferenceRows } from './reference-add.js';
import { DEFAULT_RECORD_FOLDER } from '../records/rebuild-record-files.js';
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

/** A reference's tasks in the catalog: the pool of `select --reference` (see referenceTaskIds). */
export interface ReferenceTasks {
  readonly reference: string;
  readonly rows: number;
  readonly resolved: number;
  /** Instance ids of the catalog's tasks of the functions the rows resolve to, sorted. */
  readonly instanceIds: readonly string[];
  /** Resolved rows whose function has no task in the catalog (not mined yet, no relevant tests, …). */
  readonly withoutTask: readonly ResolvedReferenceRow[];
}

/**
 * The catalog's tasks of a reference: for every row that resolves, the task of its function (by
 * repository, file and qualname). A resolved row without a task is returned for the caller to name:
 * `mine` and `tasks --reference` make them, and a function mining found no relevant tests for has none.
 */
export async function referenceTaskIds(
  catalog: Catalog,
  reference: string,
  options: { readonly repositories: readonly ManifestEntry[]; readonly projectRoot: string },
): Promise<ReferenceTasks> {
  const resolution = await resolveReference(catalog, reference, {
    repositories: options.repositories,
    recordsFolder: join(options.projectRoot, DEFAULT_RECORD_FOLDER),
  });
  const tasks = new Map(
    (await catalog.taskSummaries()).map((task) => [`${task.repository}\n${functionKey(task)}`, task.instanceId]),
  );
  const instanceIds = new Set<string>();
  const withoutTask: ResolvedReferenceRow[] = [];
  let resolved = 0;
  for (const row of resolution.rows) {
    if (row.resolution.status !== 'resolved') continue;
    resolved++;
    const instanceId = tasks.get(`${row.repository}\n${functionKey(row.resolution.function)}`);
    if (instanceId === undefined) withoutTask.push(row);
    else instanceIds.add(instanceId);
  }
  return { reference, rows: resolution.rows.length, resolved, instanceIds: [...instanceIds].sort(), withoutTask };
}

/**
 * The manifest's repositories a reference's rows name, in the manifest's order (what `curate --reference`
 * runs without --repo), and the names none of them matches (their rows are listed as unresolved).
 */
export async function referenceRepositories(
  catalog: Catalog,
  reference: string,
  repositories: readonly ManifestEntry[],
): Promise<{ readonly known: readonly string[]; readonly unknown: readonly string[] }> {
  const { rows } = await storedReferenceRows(catalog, reference);
  const manifest = repositories.map((entry) => ({ name: entry.name, url: entry.url }));
  const named = new Set<string>();
  const unknown = new Set<string>();
  for (const row of rows) {
    const name = manifestNameOf(row.repository, manifest);
    if (name === null) unknown.add(row.repository);
    else named.add(name);
  }
  return {
    known: repositories.map((entry) => entry.name).filter((name) => named.has(name)),
    unknown: [...unknown].sort(),
  };
}
