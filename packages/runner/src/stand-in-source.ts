import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { LocalManifestEntry, ManifestEntry } from './manifest.js';

/**
 * A `--source` folder that is not a git repository, given for a repository whose manifest pins a
 * commit: a release's source distribution standing in where the repository cannot be cloned
 * (scikit-learn's history is too large to bring to these machines). The rules:
 *
 * - Its files are snapshotted as the demo's are (a commit of our own, fixed identity and date), and
 *   that commit is the tasks' base commit; the entry remembers which commit the folder stands in for
 *   (`standInFor`), so that every report can say so.
 * - Its packages are resolved as of the folder's newest file (an sdist keeps the modification times of
 *   its build, the day of the release) unless the manifest sets exclude_newer, and its recipe variants are
 *   chosen by that date too (`standInReleasedAt`): a 2026 release is built with the 2026 recipe.
 */

/** A working copy (`.git` inside) or a bare repository (HEAD, objects and refs at the top). */
export function isGitRepository(folder: string): boolean {
  if (existsSync(join(folder, '.git'))) return true;
  return ['HEAD', 'objects', 'refs'].every((name) => existsSync(join(folder, name)));
}

/** The entry for a folder standing in for `entry`'s base commit (see the rules above). */
export function standInEntry(
  entry: ManifestEntry & { readonly baseCommit: string },
  source: string,
): LocalManifestEntry {
  const upstream = entry.url ?? entry.upstream;
  const releasedAt = newestFileTime(source);
  return {
    ...entry,
    url: null,
    source,
    baseCommit: null,
    standInFor: entry.baseCommit,
    standInReleasedAt: releasedAt,
    excludeNewer: entry.excludeNewer ?? releasedAt,
    ...(upstream === undefined ? {} : { upstream }),
  };
}

/** The modification time of the newest file under `folder`, as UTC `YYYY-MM-DDTHH:MM:SSZ`. */
export function newestFileTime(folder: string): string {
  let newest = 0;
  const visit = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === '.git') continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) visit(path);
      else if (entry.isFile()) newest = Math.max(newest, statSync(path).mtimeMs);
    }
  };
  visit(folder);
  return new Date(newest).toISOString().replace(/\.\d{3}Z$/, 'Z');
}
