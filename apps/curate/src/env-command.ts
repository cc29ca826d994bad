import { RepocodError } from '@repocod/core';
import { prepareStep } from '@repocod/pipeline';
import { describeRecipeChoice } from '@repocod/runner';
import type { CommandIO } from './io.js';
import type { ParsedArgs } from './parse-args.js';
import { repositoryOptions } from './repository-options.js';

export const ENV_USAGE = `usage: repocod env <repository> [--manifest FILE] [--source NAME=PATH] [--at NAME=REF]
                          [--fresh]

Checks out the repository at its base commit and makes (or reuses) its environment: a venv with the
manifest's Python, its install recipe and the runner's harness. Repositories: the 11 of REPOCOD
(datasets/repocod/manifest.yaml) and demo.

--source NAME=PATH takes repository NAME from a local clone instead of its url. --at NAME=REF builds it at
another commit than the manifest's (so do mine, tasks, run, validate, evaluate and curate): a full or short
sha, a tag, a branch, HEAD, or a day YYYY-MM-DD, the last commit on the default branch committed before that
day began (UTC; first parents only). The default branch is a --source clone's HEAD, or the remote's default
branch (origin/HEAD) of a url, fetched first. Its packages are resolved as of that commit's date, and an entry
with recipe variants is built with the one of that commit's era (the line "recipe" says which).`;

export async function envCommand(args: ParsedArgs, io: CommandIO): Promise<number> {
  const [repository, extra] = args.positionals;
  if (repository === undefined || extra !== undefined) throw new RepocodError('usage', ENV_USAGE);
  const started = performance.now();
  const prepared = await prepareStep(repository, {
    ...repositoryOptions(args),
    freshEnvironment: args.flags.get('fresh') === true,
    onLog: io.interactive ? (line) => io.err(`  ${line}\n`) : undefined,
  });
  const { checkout, environment } = prepared;
  const recipe = prepared.recipe === undefined ? null : describeRecipeChoice(prepared.recipe);
  io.out(
    [
      `${checkout.name} at ${checkout.baseCommit} (${checkout.commitTimestamp})`,
      `  checkout     ${checkout.path}`,
      ...(recipe === null ? [] : [`  recipe       ${recipe}`]),
      `  environment  ${environment.path}`,
      `               python ${environment.pythonVersion}, ${environment.installer}, ` +
        `${environment.created ? 'built' : 'reused'} in ${((performance.now() - started) / 1000).toFixed(1)} s`,
      `  resolved     ${
        environment.resolvedAsOf === null ? 'undated (newest versions)' : `as of ${environment.resolvedAsOf}`
      }`,
      `  packages     ${environment.packages.length}, hash ${environment.packagesHash.slice(0, 16)}; freeze ` +
        `${environment.freezeFile}`,
      `  log          ${environment.logFile}`,
      '',
    ].join('\n'),
  );
  return 0;
}
