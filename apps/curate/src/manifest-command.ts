import { join, resolve } from 'node:path';
import { RepocodError } from '@repocod/core';
import { findRepository } from '@repocod/pipeline';
import { checkoutAtResolver, deriveRecipeAt, parseAtOverride, proposalYaml } from '@repocod/runner';
import type { CommandIO } from './io.js';
import type { ParsedArgs } from './parse-args.js';
import { repositoryOptions } from './repository-options.js';

export const MANIFEST_USAGE = `usage: repocod manifest derive <repository> --at NAME=REF [--manifest FILE]
                                [--source NAME=PATH]

Proposes the recipe of a repository at another commit, read from its project files of that commit
(nothing is checked out or installed): pyproject.toml's requires-python (the manifest's python while it
still satisfies it, else the lowest installed minor that does), its test dependency group written out
(neither pip nor uv pip installs a group without a pyproject path), else its test extra, else a test
requirements file, else setup.cfg's or setup.py's extra; the date uv resolves versions as of (the
commit's); and what it could not decide, from other extras, tox.ini and the CI workflows' pip lines.
Printed as a variant to paste under the entry's variants: (docs/fresh.md). --at takes a commit, a
tag, a branch, HEAD or a day, as for env; its history is read where env would check it out.`;

export async function manifestCommand(args: ParsedArgs, io: CommandIO): Promise<number> {
  const [action, repository, extra] = args.positionals;
  if (action !== 'derive' || repository === undefined || extra !== undefined) {
    throw new RepocodError('usage', MANIFEST_USAGE);
  }
  const options = repositoryOptions(args);
  const own = options.ats.map(parseAtOverride).filter((at) => at.name === repository);
  const at = own[0];
  if (at === undefined || own.length > 1 || options.ats.length !== own.length) {
    throw new RepocodError(
      'usage',
      `repocod manifest derive ${repository} needs one --at ${repository}=REF\n\n${MANIFEST_USAGE}`,
    );
  }
  const entry = findRepository(repository, options);
  const resolver = checkoutAtResolver({
    reposRoot: join(options.stateRoot, 'repos'),
    projectRoot: options.projectRoot,
  });
  const resolved = await resolver(entry, at.spec, at.label);
  // The history was read here: a local folder in place, a url in the runner's clone.
  const gitDir =
    entry.url === null ? resolve(options.projectRoot, entry.source) : join(options.stateRoot, 'repos', entry.name);
  const proposal = await deriveRecipeAt({
    name: entry.name,
    gitDir,
    commit: resolved.commit,
    packageRoot: entry.packageRoot,
    manifestPython: entry.python,
  });
  io.out(`# ${at.label} is ${resolved.commit.slice(0, 12)}, ${resolved.describedAs}\n${proposalYaml(proposal)}`);
  return 0;
}
