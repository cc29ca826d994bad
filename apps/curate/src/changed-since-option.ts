import type { ReleaseDatings } from '@repocod/pipeline';
import { listRepositories, parseChangedSince, releaseDatings } from '@repocod/pipeline';
import type { ParsedArgs } from './parse-args.js';
import { listOption, stringOption } from './parse-args.js';
import { repositoryOptions } from './repository-options.js';

/** The usage lines' words for `--changed-since` and `--dated-against`. */
export const CHANGED_SINCE_HELP = `--changed-since DATE keeps only the candidates whose body was written or changed
after DATE (a day, UTC, or a timestamp with its zone): each body is dated by git blame at the base commit (its
newest code line's author time; whitespace-only changes ignored, moves within and across files followed: -w -M
-C), for a version of code newer than a model's training cutoff. It needs a clone with its history and a DATE
before the base commit. A source without history (a release's sdist unpacked and given with --source
NAME=FOLDER, as scikit-learn's stand-in is) is dated by release diff instead, with --dated-against
NAME=OLDER_SDIST: the .tar.gz sdist of NAME's last release before DATE. A body then changed after DATE when its
code lines (whitespace, blank and comment-only lines aside) differ from the same function's (same file in the
package, same qualified name) in the older release, or the function is not there; it is dated at the source's
release (its sdist's newest file). The older release must be dated before DATE, the source after it, and both
must be sdists of one project (PKG-INFO's Name). One --dated-against per repository without history.`;

/** `--changed-since DATE` as a UTC cutoff, checked now (not a date, in the future); undefined when not given. */
export function changedSinceOption(args: ParsedArgs): string | undefined {
  const value = stringOption(args, 'changed-since');
  return value === undefined ? undefined : parseChangedSince(value, new Date());
}

/**
 * `--dated-against NAME=OLDER_SDIST`, each read and checked against the cutoff and the repositories built
 * (`building`; undefined when the flow chooses them and checks them itself) before anything runs: see
 * pipeline's releaseDatings. Undefined when not given.
 */
export function datedAgainstOption(
  args: ParsedArgs,
  cutoff: string | undefined,
  building: readonly string[] | undefined,
): ReleaseDatings | undefined {
  const specs = listOption(args, 'dated-against');
  if (specs.length === 0) return undefined;
  const options = repositoryOptions(args);
  return releaseDatings({
    specs,
    cutoff,
    entries: listRepositories(options),
    building,
    projectRoot: options.projectRoot,
    stateRoot: options.stateRoot,
  });
}
