import { readFileSync } from 'node:fs';
import { RepocodError, resolveWorkers } from '@repocod/core';
import type { RunTestsSummary } from '@repocod/pipeline';
import { DEFAULT_CATALOG_PATH, openCatalog, runTestsCommand } from '@repocod/pipeline';
import { withExecutor } from './executor-option.js';
import type { CommandIO } from './io.js';
import { startProgressLines } from './progress-line.js';
import type { ParsedArgs } from './parse-args.js';
import { listOption, stringOption, wholeNumber, optionalWholeNumber } from './parse-args.js';
import { repositoryOptions } from './repository-options.js';

export const RUN_USAGE =
  `usage: repocod run <repository> [--patch FILE]... (--tests FILE | --all) [--workers N] ` +
  `[--repeat N]
                   [--timeout SECONDS] [--manifest FILE] [--source NAME=PATH] [--db FILE] [--fresh]
                   [--executor URL] [--namespace NAME] [--at NAME=REF]

Runs tests of the repository at its base commit plus the patches, in isolated worktrees, and prints
the counts by outcome, the duration and the slowest tests. --tests FILE lists pytest node ids, one
per line; --timeout (default: the manifest's) is then each job's limit. --all runs the whole suite in
shards of test files, each test limited to --timeout by pytest-timeout and each shard to that limit
per file it holds. Runs and per-test results go to the catalog as each job finishes; the same job
again (same repository, commit, environment, patches and tests) is answered from the catalog unless
--fresh. A progress line goes to stderr every 30 s.`;

export async function runCommand(args: ParsedArgs, io: CommandIO): Promise<number> {
  const [repository, extra] = args.positionals;
  if (repository === undefined || extra !== undefined) throw new RepocodError('usage', RUN_USAGE);
  const testsFile = stringOption(args, 'tests');
  const all = args.flags.get('all') === true;
  if ((testsFile === undefined) === !all)
    throw new RepocodError('usage', `give either --tests FILE or --all\n\n${RUN_USAGE}`);
  const tests = testsFile === undefined ? 'all' : readList(testsFile);
  const patches = listOption(args, 'patch').map((file) => readText(file, 'patch'));
  const catalog = await openCatalog(stringOption(args, 'db') ?? DEFAULT_CATALOG_PATH);
  const ticker = startProgressLines(io, '  ');
  ticker.step(0, 0, `${repository}: checkout and environment`);
  try {
    const summary = await withExecutor(args, io, ({ executor }) =>
      runTestsCommand(catalog, {
        executor,
        ...repositoryOptions(args),
        repository,
        fresh: args.flags.get('fresh') === true,
        patches,
        tests,
        workers: resolveWorkers(optionalWholeNumber(args, 'workers')),
        repeat: wholeNumber(args, 'repeat', 1),
        timeoutSeconds: stringOption(args, 'timeout') === undefined ? undefined : wholeNumber(args, 'timeout', 1),
        onEvent: (event) => {
          if (event.kind === 'run-start') {
            const shards = event.shards > 0 ? `the whole suite in ${event.shards} shard(s) of test files: ` : '';
            io.err(`${repository}: ${shards}${event.jobs} job(s) to run, ${event.fromCatalog} from the catalog\n`);
            ticker.step(0, event.jobs, 'pytest jobs');
          } else {
            ticker.step(event.done, event.total, '');
          }
        },
      }),
    );
    io.out(formatRunSummary(summary));
    return summary.problems.length === 0 ? 0 : 1;
  } finally {
    ticker.stop();
    await catalog.close();
  }
}

function readText(file: string, what: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new RepocodError(
      'file-unreadable',
      `${file}: cannot read the ${what} file (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
    );
  }
}

function readList(file: string): string[] {
  return readText(file, 'tests')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

/** The order outcomes are counted in: the counts come in as the shards finish, which varies from run to run. */
const OUTCOME_ORDER: readonly string[] = ['passed', 'failed', 'error', 'skipped', 'xfailed', 'xpassed', 'missing'];

export function formatRunSummary(summary: RunTestsSummary): string {
  const rank = (outcome: string): number =>
    OUTCOME_ORDER.includes(outcome) ? OUTCOME_ORDER.indexOf(outcome) : OUTCOME_ORDER.length;
  const counts = Object.entries(summary.counts)
    .sort(([a], [b]) => rank(a) - rank(b))
    .map(([outcome, count]) => `${count} ${outcome}`)
    .join(', ');
  const lines = [
    `${summary.repository} at ${summary.baseCommit.slice(0, 12)}, python ${summary.python}, ${summary.jobs} ` +
      `job(s)${summary.fromCatalog > 0 ? `, ${summary.fromCatalog} answered from the catalog` : ''}`,
    `  tests      ${summary.results.length}: ${counts === '' ? 'none' : counts}`,
    `  duration   ${summary.durationSeconds.toFixed(1)} s`,
    `  network    ${summary.network || 'no run'}`,
    '  slowest',
    ...summary.slowest.map((test) => `    ${test.duration.toFixed(2)} s  ${test.nodeId}`),
    ...(summary.problems.length === 0
      ? []
      : ['  problems', ...summary.problems.map((problem) => `    ${problem.replaceAll('\n', '\n    ')}`)]),
  ];
  return `${lines.join('\n')}\n`;
}
