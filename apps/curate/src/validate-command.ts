import type { ProgressTicker, ValidateEvent, ValidateSummary } from '@repocod/pipeline';
import type { Catalog } from '@repocod/pipeline';
import {
  checksOf,
  countValidations,
  DEFAULT_CATALOG_PATH,
  openCatalog,
  selectionOverReference,
  runValidateCommand,
} from '@repocod/pipeline';
import { RepocodError, resolveWorkers } from '@repocod/core';
import { withExecutor } from './executor-option.js';
import type { CommandIO } from './io.js';
import { startProgressLines } from './progress-line.js';
import type { ParsedArgs } from './parse-args.js';
import { recordStageSeconds } from './stage-seconds.js';
import { listOption, stringOption, wholeNumber, optionalWholeNumber } from './parse-args.js';
import { repositoryOptions } from './repository-options.js';

export const VALIDATE_USAGE =
  `usage: repocod validate [--selection ID | --reference NAME] [--repo NAME]... ` +
  `[--repeat K]
                        [--retry-failed] [--narrow]
                        [--gold-runs] [--fresh] [--timeout SECONDS] [--workers N] [--manifest FILE]
                        [--source NAME=PATH] [--at NAME=REF] [--db FILE] [--executor URL] [--namespace NAME]

Checks every task of a selection (default: the latest; --reference NAME: the newest made over that
reference, see repocod select) with the shared runner, REPOCOD's way:
(1) the starting state (base + pre patches) collects; (2) with the tests restored, at least one
FAIL_TO_PASS test fails without the body (an empty body does not solve the task; the run stops at
the first failure, and the tests seen passing before it are recorded); (3) with the gold patches,
every FAIL_TO_PASS test passes in each of K runs (default: the repository's validate_runs in the
manifest, else 3), and the whole FAIL_TO_PASS fits the manifest's limit of one run (its timeout,
REPOCOD's 600 s): a gold run that times out fails the task with its time; where mining's baseline
answers, its per-test durations summed decide (over the limit: fails; within half of it: fits), else
one run of the gold state does. Tests that flip leave FAIL_TO_PASS and are recorded. FAIL_TO_PASS is
kept whole. The gold state is the base commit byte for byte, so check
(3) is answered by mining's K baseline runs of the same environment when the catalog has them, and
by K runs of the gold patches otherwise (or always, with --gold-runs). --narrow is SWE-bench's
reading: every test runs without the body and those that pass leave FAIL_TO_PASS. Tasks run in
parallel on each repository's worktrees; each verdict goes to the catalog with its provenance (tool,
Python, packages hash, run ids, how check 3 was answered) as soon as it is in, so a rerun resumes
where a run stopped, and jobs already run are answered from the catalog unless --fresh.
--retry-failed validates the failed tasks again (infrastructure errors are always retried). A repository
built at another commit with --at is validated at its tasks' commit without --at (its catalog name,
NAME@COMMIT12, says which); --repo takes that name or the manifest's.
Exit code 1 when a task could not be judged (timeout, crash, broken environment).`;

export async function validateCommand(args: ParsedArgs, io: CommandIO): Promise<number> {
  if (args.positionals.length > 0) throw new RepocodError('usage', VALIDATE_USAGE);
  const catalog = await openCatalog(stringOption(args, 'db') ?? DEFAULT_CATALOG_PATH);
  const ticker = startProgressLines(io, '  ');
  try {
    const started = performance.now();
    const selectionId = await selectionOption(catalog, args);
    const summary = await withExecutor(args, io, ({ executor }) =>
      runValidateCommand(catalog, {
        executor,
        ...repositoryOptions(args),
        selectionId,
        repositories: listOption(args, 'repo'),
        repeat: optionalWholeNumber(args, 'repeat'),
        timeoutSeconds: stringOption(args, 'timeout') === undefined ? undefined : wholeNumber(args, 'timeout', 1),
        workers: resolveWorkers(optionalWholeNumber(args, 'workers')),
        retryFailed: args.flags.get('retry-failed') === true,
        narrow: args.flags.get('narrow') === true,
        goldRuns: args.flags.get('gold-runs') === true,
        fresh: args.flags.get('fresh') === true,
        onEvent: progressPrinter(io, ticker),
      }),
    );
    io.out(formatValidateSummary(summary));
    // One repository's time is the run's; a run over several does not split it (the flow does, per repository).
    const [only, ...others] = listOption(args, 'repo');
    const [validated] = summary.repositories;
    if (only !== undefined && others.length === 0 && validated !== undefined && summary.repositories.length === 1)
      await recordStageSeconds(catalog, validated.repository, 'validate', started);
    return summary.validations.some((row) => row.status === 'infra-error') ? 1 : 0;
  } finally {
    ticker.stop();
    await catalog.close();
  }
}

/** --selection ID, or with --reference NAME the newest selection over it (ID, if given, must be over it). */
async function selectionOption(catalog: Catalog, args: ParsedArgs): Promise<string | undefined> {
  const reference = stringOption(args, 'reference');
  const given = stringOption(args, 'selection');
  return reference === undefined ? given : selectionOverReference(catalog, reference, given);
}

function progressPrinter(io: CommandIO, ticker: ProgressTicker): (event: ValidateEvent) => void {
  return (event) => {
    if (event.kind === 'validate-repository') {
      io.err(
        `${event.repository}: ${event.tasks} task(s), ${event.toValidate} to validate (${event.jobs} job(s) to run, ` +
          `${event.jobsFromCatalog} from the catalog)\n`,
      );
      ticker.step(0, event.toValidate, `${event.repository}: tasks validated`);
      return;
    }
    ticker.step(event.done, event.total, '');
    const line = `  validated ${event.done}/${event.total}: ${event.instanceId} ${event.status}`;
    // A line per task off a terminal, so a log (or a killed run's output) shows how far it got.
    if (io.interactive) io.err(`\r${line}\u001b[K${event.done === event.total ? '\n' : ''}`);
    else io.err(`${line}\n`);
  };
}

const CHECK_LABELS = {
  collects: 'collects',
  'fails-without-body': 'fails w/o body',
  'passes-with-gold': 'passes w/ gold',
} as const;

export function formatValidateSummary(summary: ValidateSummary): string {
  const counts = countValidations(summary.validations);
  const now = summary.repositories.reduce((sum, repository) => sum + repository.validatedNow, 0);
  const lines = [
    `selection ${summary.selectionId}: ${counts.tasks} task(s) validated (${now} now, ${counts.tasks - now} from an ` +
      `earlier run) in ${summary.durationSeconds.toFixed(1)} s`,
    '  checks             passed  failed   infra',
    ...Object.entries(CHECK_LABELS).map(([check, label]) => {
      const row = counts.byCheck[check as keyof typeof CHECK_LABELS];
      const cells = [row.passed, row.failed, row['infra-error']].map((count, index) =>
        String(count).padStart(index === 0 ? 6 : 8),
      );
      return `    ${label.padEnd(16)}${cells.join('')}`;
    }),
    `  verdicts         ${counts.byStatus.passed} passed, ${counts.byStatus.failed} failed, ` +
      `${counts.byStatus['infra-error']} infrastructure error(s)`,
    `  flaky tests      ${counts.flakyTests} removed from FAIL_TO_PASS (in ${counts.tasksWithFlakyTests} task(s)); ` +
      `${goldRuns(summary)} with the gold patches`,
    ...(counts.droppedTests > 0
      ? [`  narrowed         ${counts.droppedTests} test(s) that pass without the body removed from FAIL_TO_PASS`]
      : []),
    ...(counts.tasksPassingWithoutBody > 0 && counts.droppedTests === 0
      ? [
          `  kept             ${counts.tasksPassingWithoutBody} task(s) with test(s) seen passing without the body ` +
            `(REPOCOD's rule; --narrow drops them)`,
        ]
      : []),
    `  gold check       ${counts.goldFromBaseline} task(s) answered by mining's baseline, ` +
      `${counts.tasks - counts.goldFromBaseline} by ${goldRuns(summary)} of the gold patches`,
    `  provenance       ${summary.toolVersion}`,
    ...summary.repositories.map(
      (repository) =>
        `                   ${repository.repository}: python ${repository.pythonVersion}, packages ` +
        `${repository.packagesHash.slice(0, 12)}, ${repository.jobsRun} job(s) run, ${repository.jobsFromCatalog} ` +
        `from the ` +
        `catalog, ${repository.workers} worker(s)`,
    ),
  ];
  const problems = summary.validations.filter((row) => row.status !== 'passed');
  if (problems.length > 0)
    lines.push(
      `  ${problems.some((row) => row.status === 'failed') ? 'failed' : 'not judged'} (left out of a release unless ` +
        `kept with publish --keep ID)`,
    );
  for (const row of problems.slice(0, 20)) {
    for (const check of checksOf(row).filter((item) => item.status !== 'passed')) {
      const label = check.status === 'infra-error' ? `${check.check} (infrastructure error)` : check.check;
      lines.push(`    ${row.instanceId}  ${label}: ${check.detail}`);
      for (const test of check.tests.slice(0, 3)) lines.push(`      ${test}`);
      if (check.tests.length > 3) lines.push(`      … and ${check.tests.length - 3} more`);
    }
  }
  if (problems.length > 20)
    lines.push(`    … and ${problems.length - 20} more (repocod sql "select instance_id, status from validations")`);
  for (const row of summary.validations.filter((item) => item.flakyTests.length > 0).slice(0, 10))
    lines.push(`  flaky in ${row.instanceId}: ${row.flakyTests.join(', ')}`);
  if (problems.length > 0)
    lines.push(
      '  next             repocod show ID (checks and logs); repocod validate --retry-failed; repocod publish ' +
        '--version V',
    );
  return `${lines.join('\n')}\n`;
}

/** "3 run(s)", or per repository where their k differ (the manifest's validate_runs): "1 (sympy) or 3 run(s)". */
function goldRuns(summary: ValidateSummary): string {
  const ks = [...new Set(summary.repositories.map((repository) => repository.repeat))].sort((a, b) => a - b);
  if (ks.length <= 1) return `${ks[0] ?? summary.repeat ?? 3} run(s)`;
  const named = ks.map((k) => {
    const names = summary.repositories.filter((repository) => repository.repeat === k).map((r) => r.repository);
    return `${k} (${names.join(', ')})`;
  });
  return `${named.join(' or ')} run(s)`;
}
