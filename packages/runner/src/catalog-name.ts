import type { ManifestEntry } from './manifest.js';

/**
 * How a repository built at a commit other than its manifest's (`--at`) lives in the same catalog as the manifest's
 * build. The rules, stated once:
 * - An entry at the commit its manifest names is keyed by its manifest name (`flask`), as every catalog made before
 *   eras was: their rows, selections and records stay valid.
 * - An entry `--at` moved to another commit is another era of the repository, keyed `NAME@COMMIT12`
 *   (`flask@2ac89889f4cc`): files, functions, mining, tasks, runs and stage times of the two eras sit side by side
 *   and neither replaces the other.
 * - That era's tasks carry the same `@COMMIT12` on their instance ids in the catalog (validations, picks and
 *   levels are keyed by instance id). A release, a record and a diff name a task without it: the instance id stays
 *   REPOCOD's, so one function is one task across versions, and the base commit says which era it is.
 * - An era has a working copy and worktrees of its own (`repos/NAME@COMMIT12`, cloned from the project's clone), so
 *   two eras can be prepared side by side. Environments and body dates are the project's, keyed by commit; reference
 *   lists are the project's, by its manifest name.
 * `@` is in no manifest name (manifest-values.ts) and no instance id, so the suffix reads back unambiguously.
 */
export function catalogName(entry: Pick<ManifestEntry, 'name' | 'baseCommit' | 'manifestCommit'>): string {
  const era = eraOf(entry);
  return era === null ? entry.name : `${entry.name}@${era}`;
}

/** The `COMMIT12` of an entry moved to another era, null at its manifest's commit. */
export function eraOf(entry: Pick<ManifestEntry, 'baseCommit' | 'manifestCommit'>): string | null {
  if (entry.manifestCommit === undefined || entry.baseCommit === null) return null;
  return entry.baseCommit === entry.manifestCommit ? null : entry.baseCommit.slice(0, ERA_LENGTH);
}

/** The instance id a task of `entry` has in the catalog: its own, with the era's `@COMMIT12` for another era. */
export function catalogInstanceId(
  instanceId: string,
  entry: Pick<ManifestEntry, 'baseCommit' | 'manifestCommit'>,
): string {
  const era = eraOf(entry);
  return era === null ? instanceId : `${instanceId}@${era}`;
}

/** The manifest name behind a catalog name: `flask@2ac89889f4cc` → `flask`, `flask` → `flask`. */
export function projectName(catalogName: string): string {
  return withoutEra(catalogName);
}

/** The instance id a release names a task by: `…Flask.run@2ac89889f4cc` → `…Flask.run`. */
export function releaseInstanceId(catalogInstanceId: string): string {
  return withoutEra(catalogInstanceId);
}

const ERA_LENGTH = 12;
const ERA_SUFFIX = /@[0-9a-f]{12}$/;

function withoutEra(name: string): string {
  return name.replace(ERA_SUFFIX, '');
}
