import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { RepocodError } from '@repocod/core';
import { resolveAt } from './at-ref.js';
import { ensureClone } from './checkout.js';
import { git, gitSucceeds } from './git.js';
import type { AtResolver } from './manifest-at-overrides.js';
import { isGitRepository } from './stand-in-source.js';

export interface AtResolverOptions {
  /** Where clones live: `.repocod/repos` (a url's history is read in the clone the checkout uses). */
  readonly reposRoot: string;
  /** What a manifest's relative `source` is relative to. */
  readonly projectRoot: string;
}

/** Where the remote's default branch is, in a clone of a url. */
const REMOTE_DEFAULT_BRANCH = 'refs/remotes/origin/HEAD';

/**
 * The runner's answer to "which commit is REF of this repository", read where the checkout will come from:
 *
 * - a local git folder (a `--source` clone, or a manifest `source` that is a clone) in place: HEAD and days are
 *   read on that clone's HEAD, the branch its owner has checked out, and nothing is fetched;
 * - a url in the runner's own clone (`<reposRoot>/<name>`, made if need be), fetched first so that HEAD and a
 *   recent day see today's commits: HEAD and days are read on the remote's default branch (origin/HEAD). A fetch
 *   that fails is an error, not a silent answer from a stale clone;
 * - a url's commit (hex, as a flow asks for an era its catalog holds: `xarray@b1c1dc549b62`) that an era's working
 *   copy in `<reposRoot>` already has, in that copy, with nothing fetched: a build resumed in another invocation
 *   (another `--repo` list) still validates the era's tasks where the url cannot be reached.
 */
export function checkoutAtResolver(options: AtResolverOptions): AtResolver {
  return async (entry, spec, label) => {
    if (entry.url === null) {
      const folder = resolve(options.projectRoot, entry.source);
      if (!isGitRepository(folder)) {
        throw new RepocodError(
          'usage',
          `${label}: ${entry.name} is taken from ${folder}, which is not a git repository, so it has no commits to ` +
            `choose from; give a clone with --source ${entry.name}=PATH`,
        );
      }
      return resolveAt(folder, spec, { label });
    }
    const era = await eraCloneWith(options.reposRoot, entry.name, spec);
    if (era !== null) return resolveAt(era, spec, { label });
    const clone = join(options.reposRoot, entry.name);
    await ensureClone(entry.url, clone);
    try {
      await git(clone, ['fetch', '--quiet', '--tags', entry.url, '+refs/heads/*:refs/remotes/origin/*']);
    } catch (error) {
      throw new RepocodError(
        'git-failed',
        `${label}: cannot fetch ${entry.url} to see its newest commits ` +
          `(${error instanceof Error ? error.message : String(error)}); give a local clone with --source ` +
          `${entry.name}=PATH`,
        { cause: error },
      );
    }
    if (!(await gitSucceeds(clone, ['symbolic-ref', '--quiet', REMOTE_DEFAULT_BRANCH]))) {
      await gitSucceeds(clone, ['remote', 'set-head', 'origin', '--auto']);
    }
    return resolveAt(clone, spec, { label, mainline: REMOTE_DEFAULT_BRANCH });
  };
}

/** The era's working copy (`<name>@<commit12>`, catalog-name.ts) that has the commit `spec` names, if any. */
async function eraCloneWith(reposRoot: string, name: string, spec: string): Promise<string | null> {
  if (!/^[0-9a-f]{7,40}$/.test(spec) || !existsSync(reposRoot)) return null;
  for (const folder of readdirSync(reposRoot)) {
    const era = folder.startsWith(`${name}@`) ? folder.slice(name.length + 1) : null;
    if (era === null || !(era.startsWith(spec) || spec.startsWith(era))) continue;
    const path = join(reposRoot, folder);
    if (await gitSucceeds(path, ['cat-file', '-e', `${spec}^{commit}`])) return path;
  }
  return null;
}
