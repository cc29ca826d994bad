import { cpSync, existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { RepocodError } from '@repocod/core';
import { RUNNER_COMMIT_ENV, commitTime, git, gitSucceeds } from './git.js';
import { catalogName } from './catalog-name.js';
import type { ManifestEntry } from './manifest.js';
import { fillBlobsFromDistributions, missingBlobs, missingBlobsError } from './missing-blobs.js';

export interface Checkout {
  /** The repository's catalog name (catalog-name.ts): its era's, for an entry --at moved. */
  readonly name: string;
  /** The main working copy, at the base commit. */
  readonly path: string;
  readonly baseCommit: string;
  /** The base commit's committer date, ISO 8601 (REPOCOD's base_commit_timestamp). */
  readonly commitTimestamp: string;
}

export interface CheckoutOptions {
  /** Where clones live: `.repocod/repos`. */
  readonly reposRoot: string;
  /** What a manifest's relative `source` is relative to. */
  readonly projectRoot: string;
  /** Where the distributions of `blobs_from` are downloaded to (default: `downloads` beside reposRoot). */
  readonly downloadsRoot?: string;
  readonly onLog?: (line: string) => void;
}

/**
 * Brings a repository to `<reposRoot>/<name>` at its base commit: cloned from its url (or from a
 * local clone given with --source), fetched when the commit is not there yet. A local source without
 * a commit (the bundled demo) becomes a git repository of its current files, committed with a fixed
 * identity and date, so the same files always give the same base commit.
 */
export async function ensureCheckout(entry: ManifestEntry, options: CheckoutOptions): Promise<Checkout> {
  // Each era has a working copy (and worktrees) of its own, so two eras can be built side by side; an era of a url's
  // repository is cloned from the project's clone, which --at fetched to resolve its ref (at-resolver.ts).
  const name = catalogName(entry);
  const path = join(options.reposRoot, name);
  mkdirSync(options.reposRoot, { recursive: true });
  const projectClone = join(options.reposRoot, entry.name);
  const origin =
    entry.url === null
      ? resolve(options.projectRoot, entry.source)
      : name !== entry.name && existsSync(join(projectClone, '.git'))
        ? projectClone
        : entry.url;
  const baseCommit = entry.baseCommit;
  if (baseCommit === null) {
    const snapshot = await snapshotFolder(origin, path);
    if (entry.url === null && entry.standInFor !== undefined) {
      const files = `its files (snapshot ${snapshot.slice(0, 12)})`;
      options.onLog?.(
        `${entry.name}: ${origin} is not a git repository: ${files} stand in for ${entry.standInFor.slice(0, 12)}`,
      );
    }
    return { name, path, baseCommit: snapshot, commitTimestamp: await commitTime(path, snapshot) };
  }
  await ensureClone(origin, path).catch((error: unknown) => {
    // Where the url cannot be reached (no network, a private repository), a local clone is the way on.
    const reason = error instanceof Error ? error.message : String(error);
    throw new RepocodError(
      'git-failed',
      [
        `${entry.name}: could not clone ${origin} (${reason.split('\n').at(-1)}); give a local clone with`,
        `--source ${entry.name}=PATH (and --repo ${entry.name} to curate: a flow prepares the repositories it runs`,
        'from their clones, and the others its selection holds from their urls)',
      ].join(' '),
      { cause: error },
    );
  });
  if (!(await hasCommit(path, baseCommit))) {
    // A shallow or older clone: fetch the commit itself, then everything, before giving up.
    await gitSucceeds(path, ['fetch', '--quiet', origin, baseCommit]);
    if (!(await hasCommit(path, baseCommit))) await gitSucceeds(path, ['fetch', '--quiet', '--tags', origin]);
  }
  if (!(await hasCommit(path, baseCommit))) {
    throw new RepocodError(
      'commit-missing',
      `${entry.name}: base commit ${baseCommit} is not in ${origin}; check base_commit in the manifest, or give a ` +
        `clone that has it with --source ${entry.name}=PATH`,
    );
  }
  await completeTree(entry, path, baseCommit, options);
  await git(path, ['checkout', '--quiet', '--force', '--detach', baseCommit]);
  return { name, path, baseCommit, commitTimestamp: await commitTime(path, baseCommit) };
}

/** A clone of `origin` at `path` (no files checked out), made unless one is there. */
export async function ensureClone(origin: string, path: string): Promise<void> {
  if (existsSync(join(path, '.git'))) return;
  rmSync(path, { recursive: true, force: true });
  mkdirSync(dirname(path), { recursive: true });
  await git(dirname(path), ['clone', '--quiet', '--no-checkout', origin, path]);
}

/** Every file of the base commit readable, from the manifest's blobs_from if need be (see missing-blobs.ts). */
async function completeTree(
  entry: ManifestEntry,
  path: string,
  commit: string,
  options: CheckoutOptions,
): Promise<void> {
  const missing = await missingBlobs(path, commit);
  if (missing.length === 0) return leaveOut(path, []);
  const distributions = entry.blobsFrom ?? [];
  const downloads = options.downloadsRoot ?? join(dirname(options.reposRoot), 'downloads');
  const filled = await fillBlobsFromDistributions(path, missing, distributions, downloads);
  for (const file of filled) {
    options.onLog?.(`${entry.name}: ${file.path} taken from ${file.from} (blob ${file.blob.slice(0, 12)})`);
  }
  const absent = new Set((entry.absentFiles ?? []).map((file) => file.path));
  const left = await missingBlobs(path, commit);
  const unexplained = left.filter((file) => !absent.has(file.path));
  if (unexplained.length > 0) throw missingBlobsError(entry.name, path, unexplained, distributions);
  await leaveOut(
    path,
    left.map((file) => file.path),
  );
  for (const file of left) options.onLog?.(`${entry.name}: ${file.path} left out (absent_files; blob ${file.blob})`);
}

/**
 * A sparse checkout of everything but `paths` (absent_files), or none when `paths` is empty: git then neither writes
 * nor reads those files, so the checkout that follows, `reset --hard` and the worktrees made from this clone (which
 * take its patterns) pass over their missing blobs. The patterns are written, not set with `git sparse-checkout`,
 * which would first apply them to the clone's current HEAD, whose tree may lack other blobs; they are written anew
 * for each base commit, from the files it lacks, so no file another commit has is left out.
 */
async function leaveOut(path: string, paths: readonly string[]): Promise<void> {
  if (paths.length === 0) {
    if (await gitSucceeds(path, ['config', '--get', 'core.sparseCheckout']))
      await git(path, ['config', 'core.sparseCheckout', 'false']);
    return;
  }
  const file = resolve(path, await git(path, ['rev-parse', '--git-path', 'info/sparse-checkout']));
  mkdirSync(dirname(file), { recursive: true });
  const escaped = paths.map((absent) => `!/${absent.replace(/([*?[\]\\!#])/g, '\\$1')}`);
  writeFileSync(file, `${['/*', ...escaped].join('\n')}\n`);
  await git(path, ['config', 'core.sparseCheckoutCone', 'false']);
  await git(path, ['config', 'core.sparseCheckout', 'true']);
}

async function hasCommit(path: string, commit: string): Promise<boolean> {
  return gitSucceeds(path, ['cat-file', '-e', `${commit}^{commit}`]);
}

/**
 * Commits the folder's files (as its own .gitignore selects them) in a fresh repository beside the
 * target, and swaps it in only when the commit differs from the one there: an unchanged folder keeps
 * its checkout (and the worktrees made from it).
 */
async function snapshotFolder(source: string, path: string): Promise<string> {
  if (!existsSync(source)) {
    throw new RepocodError('path-not-found', `${source}: the manifest's source folder does not exist`);
  }
  const staging = `${path}.staging`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(dirname(staging), { recursive: true });
  cpSync(source, staging, { recursive: true, filter: (file) => !file.split('/').includes('.git') });
  await git(staging, ['init', '--quiet', '--initial-branch=main']);
  await git(staging, ['add', '--all']);
  await git(
    staging,
    ['commit', '--quiet', '--no-gpg-sign', '--message', 'snapshot of the bundled project'],
    RUNNER_COMMIT_ENV,
  );
  const commit = await git(staging, ['rev-parse', 'HEAD']);
  const current = existsSync(join(path, '.git')) ? await git(path, ['rev-parse', 'HEAD']).catch(() => '') : '';
  if (current === commit) {
    rmSync(staging, { recursive: true, force: true });
    await git(path, ['checkout', '--quiet', '--force', '--detach', commit]);
    return commit;
  }
  rmSync(path, { recursive: true, force: true });
  renameSync(staging, path);
  return commit;
}
