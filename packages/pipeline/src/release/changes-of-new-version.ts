import type { Catalog } from '@repocod/catalog';
import { RepocodError } from '@repocod/core';
import type { ReleaseRow, VersionFile } from '@repocod/publish';
import { releasedVersions } from './released-versions.js';
import { FRESHNESS_RECORD } from './release-freshness.js';
import { VALIDATION_RECORD } from './release-content.js';
import { TASK_RECORD } from './task-record.js';
import type { VersionDiffReport } from './version-diff.js';
import { versionDiff } from './version-diff.js';
import { readVersionSide, releaseFolderVersions, versionSideOf } from './version-side.js';

export interface NewVersionChangesOptions {
  /** The version to compare with (`publish --diff-against`); default: the folder's latest version. */
  readonly against?: string;
}

/**
 * What a version about to be published changes from an earlier one of its folder, for the card's "Changes since"
 * section: against `against` when given, else against the latest version the folder's card lists (the default
 * config until now, and the version a reader of the Hub last saw). A folder without an earlier version (a first
 * release, such as 1.0) gets no section, so its card stays as it was.
 */
export async function changesOfNewVersion(
  catalog: Catalog,
  folder: string,
  version: { readonly name: string; readonly rows: readonly ReleaseRow[]; readonly extras: readonly VersionFile[] },
  options: NewVersionChangesOptions,
): Promise<VersionDiffReport | null> {
  const against = options.against ?? releasedVersions(folder).at(-1)?.version;
  if (against === undefined) return null;
  if (options.against !== undefined) {
    const versions = releaseFolderVersions(folder);
    if (!versions.includes(against))
      throw new RepocodError(
        'usage',
        `--diff-against ${against}: not a version of ${folder}; its versions: ${versions.join(', ')}`,
      );
  }
  const extra = (name: string): string => version.extras.find((file) => file.name === name)?.content ?? '';
  const b = versionSideOf(
    version.name,
    version.rows,
    extra(TASK_RECORD),
    extra(VALIDATION_RECORD),
    `version ${version.name}`,
    extra(FRESHNESS_RECORD),
  );
  // Each side's cutoff is the one its freshness.json records (the new version's is among its extras).
  return versionDiff(catalog, readVersionSide(folder, against), b);
}
