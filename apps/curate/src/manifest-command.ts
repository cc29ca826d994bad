import { join, resolve } from 'node:path';
import { RepocodError } from '@repocod/core';
import { findRepository } from '@repocod/pipeline';
import type { ManifestEntry } from '@repocod/runner';
import {
  checkoutAtResolver,
  deriveRecipeAt,
  entryYaml,
  parseAtOverride,
  parseSourceOverride,
  proposalYaml,
  proposeEntry,
} from '@repocod/runner';
import type { CommandIO } from './io.js';
import { MANIFEST_ADD_DESCRIPTION, manifestAddCommand } from './manifest-add-command.js';
import type { ParsedArgs } from './parse-args.js';
import { repositoryOptions } from './repository-options.js';

export const MANIFEST_USAGE = `usage: repocod manifest derive <repository> --at NAME=REF [--manifest FILE]
                                [--source NAME=PATH] [--entry]
       repocod manifest add <repository> (--source PATH | --url URL) --manifest FILE
                             [--at REF] [--owner OWNER] [--package-root DIR] [--no-check]

derive proposes the recipe of a repository at another commit, read from its project files of that commit
(nothing is checked out or installed): pyproject.toml's requires-python (the manifest's python while it
still satisfies it, else the lowest installed minor that does), its test dependency group written out
(neither pip nor uv pip installs a group without a pyproject path), else its test extra, else a test
requirements file, else setup.cfg's or setup.py's extra; the date uv resolves versions as of (the
commit's); and what it could not decide, from other extras, tox.ini and the CI workflows' pip lines.
Printed as a variant to paste under the entry's variants: (docs/fresh.md). --at takes a commit, a
tag, a branch, HEAD or a day, as for env; its history is read where env would check it out. For a
repository no manifest has (give --source NAME=PATH), or with --entry, it prints a whole entry instead.

${MANIFEST_ADD_DESCRIPTION}`;

export async function manifestCommand(args: ParsedArgs, io: CommandIO): Promise<number> {
  const [action, repository, extra] = args.positionals;
  if (action === 'add') return manifestAddCommand(args, io);
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
  const known = isKnown(repository, options);
  if (!known || args.flags.get('entry') === true) return deriveEntry(repository, at.spec, at.label, options, io);
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

type RepositoryOptions = ReturnType<typeof repositoryOptions>;

/** Whether a manifest (the user's, else the built-in ones) has the name; a missing --manifest file still throws. */
function isKnown(repository: string, options: RepositoryOptions): boolean {
  try {
    findRepository(repository, { ...options, sources: [], ats: [] });
    return true;
  } catch (error) {
    if (error instanceof RepocodError && /no repository named/.test(error.message)) return false;
    throw error;
  }
}

/** A whole entry proposed at the commit, for a repository given as --source NAME=PATH (entry-proposal.ts). */
async function deriveEntry(
  repository: string,
  spec: string,
  label: string,
  options: RepositoryOptions,
  io: CommandIO,
): Promise<number> {
  const source = options.sources.map(parseSourceOverride).find((override) => override.name === repository);
  if (source === undefined) {
    throw new RepocodError(
      'usage',
      [
        `repocod manifest derive ${repository}: no manifest has "${repository}"; give its clone with`,
        `--source ${repository}=PATH to propose a whole entry, or write one with \`repocod manifest add\``,
      ].join(' '),
    );
  }
  const path = resolve(source.path);
  const origin = { name: repository, url: null, source: path } as ManifestEntry;
  const resolver = checkoutAtResolver({
    reposRoot: join(options.stateRoot, 'repos'),
    projectRoot: options.projectRoot,
  });
  const resolved = await resolver(origin, spec, label);
  const proposal = await proposeEntry({
    name: repository,
    gitDir: path,
    commit: resolved.commit,
    url: null,
    source: path,
    packageRoot: '.',
  });
  io.out(`# ${label} is ${resolved.commit.slice(0, 12)}, ${resolved.describedAs}\n${entryYaml(proposal)}`);
  return 0;
}
