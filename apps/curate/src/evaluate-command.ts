import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { RepocodError, resolveWorkers } from '@repocod/core';
import type { EvaluateEvent, EvaluateSummary, ModelReport, ProgressTicker, SinceScope } from '@repocod/pipeline';
import {
  DEFAULT_CATALOG_PATH,
  downloadHubRelease,
  parseChangedSince,
  parseInsertionMode,
  runEvaluateCommand,
  evaluationReports,
  hubToken,
  modelFolder,
  openCatalog,
  parseHubRepo,
  reportHtml,
  reportText,
} from '@repocod/pipeline';
import { withExecutor } from './executor-option.js';
import type { CommandIO } from './io.js';
import type { ParsedArgs } from './parse-args.js';
import { listOption, optionalWholeNumber, stringOption, wholeNumber } from './parse-args.js';
import { startProgressLines } from './progress-line.js';
import { PROJECT_ROOT } from './project-root.js';
import { repositoryOptions } from './repository-options.js';

export const EVALUATE_USAGE =
  `usage: repocod evaluate (--predictions FILE | --gold) ` +
  `(--release DIR [--version V] | --hub ORG/NAME [--revision R] [--hub-url URL])
                        [--run-id ID] [--instances ID]... [--since DATE] [--timeout SECONDS] [--exit-first] [--fresh]
                        [--insert lenient|repocod] [--out DIR] [--html FILE] [--workers N] [--manifest FILE]
                        [--source NAME=PATH] [--at NAME=REF] [--db FILE] [--executor URL] [--namespace NAME]
       repocod evaluate --report RUN_ID [--html FILE] [--db FILE]
       repocod evaluate --runs [--db FILE]

Scores a model's predictions on a release with the runner that built it. Each prediction runs on its
task's pre state (the code and test pre patches), the model's change applied, the hidden tests
restored (gold.test), then its FAIL_TO_PASS once within the manifest's limit (--timeout); resolved
iff every test passes (skips and xfails allowed); --exit-first stops the run at the first failing
test (pytest -x, as REPOCOD's evaluator runs): the same verdicts, faster for unresolved ones, but
only that first failing test is named. Predictions: SWE-bench's JSON lines or JSON list
(instance_id, model_name_or_path, model_patch: a diff against the pre state), a completion
(instance_id, completion: a whole def that replaces the function, or a body that goes after the
prompt) or REPOCOD's output ({repo: {id: {function_name, prompt, output}}}, matched by name).
--insert says how a completion goes into its function (docs/evaluate.md has a table of output shapes):
lenient (the default) reads the code out of what models write (a fenced block and prose around it, a
closing fence without an opening one, tabs, a whole def with or without decorators, a body at any
indentation); repocod is REPOCOD's evaluator's rule, verbatim (a stripped output starting with "def "
replaces the function from its def line, any other goes after the prompt as it is), and implies
--exit-first: numbers comparable with REPOCOD's tables (default run id e.g. preds@1.0-insert-repocod). A
malformed line, an unknown instance or a second prediction for a task is named (file:line, field)
and the others run. --gold evaluates the release's gold patches: every task must resolve. Outcomes
besides resolved and unresolved: empty, patch-failed, timeout, error. The release is a folder in
publish's layout (default config, or --version V), or ORG/NAME on the Hub (downloaded once, sizes and
sha256 checked, into <out>/releases/). Each outcome goes to the catalog under the run id
(default: the predictions file's name and the version, e.g. preds@1.0) as it comes, so a rerun
resumes and runs nothing twice (--fresh runs again); logs go to <out>/<run>/<model>/<instance>/
(model.patch, test_output.txt, results.json; --out DIR, default out/evaluations), the report to
<out>/<run>/<model>/report.json (SWE-bench's summary keys, pass@1 per repository, context level,
complexity and solution length). --since DATE (a day, UTC, or a timestamp with its zone) scores only
the tasks whose body changed on or after DATE, by the release's tasks.jsonl (body_changed_at, written
for a version built with --changed-since): a model scored on code newer than its training cutoff; a
task without a body date is left out, and the report says the date, how many tasks were scored and how
many were left out and why (default run id e.g. gold@2.0-since-2025-06-01). A release without any body
date, or a DATE after every body's, is a usage error. --report RUN_ID prints a stored run's tables;
--html FILE writes them as one self-contained page with charts. --runs lists the runs. Exit code 1
when a prediction could not be run (error, timeout).`;

export async function evaluateCommand(args: ParsedArgs, io: CommandIO): Promise<number> {
  if (args.positionals.length > 0) throw new RepocodError('usage', EVALUATE_USAGE);
  const catalog = await openCatalog(stringOption(args, 'db') ?? DEFAULT_CATALOG_PATH);
  try {
    if (args.flags.get('runs') === true) {
      for (const run of await catalog.evaluationRuns())
        io.out(
          `${run.runId}  ${run.release} ${run.version}  ${run.models} model(s), ${run.evaluations} evaluated, ` +
            `${run.resolved} resolved  ${run.startedAt.toISOString()}\n`,
        );
      return 0;
    }
    const reportOf = stringOption(args, 'report');
    if (reportOf !== undefined) {
      const reports = await evaluationReports(catalog, reportOf);
      printReports(io, reports, stringOption(args, 'html'));
      return 0;
    }
    const gold = args.flags.get('gold') === true;
    const predictions = stringOption(args, 'predictions');
    if (gold === (predictions !== undefined))
      throw new RepocodError('usage', `give --predictions FILE or --gold (one of them)\n\n${EVALUATE_USAGE}`);
    const outDir = stringOption(args, 'out') ?? join(PROJECT_ROOT, 'out', 'evaluations');
    const release = await releaseFolder(args, io, outDir);
    const insertFlag = stringOption(args, 'insert');
    const insertion = insertFlag === undefined ? 'lenient' : parseInsertionMode(insertFlag);
    const ticker = startProgressLines(io, '  ');
    try {
      const summary = await withExecutor(args, io, ({ executor }) =>
        runEvaluateCommand(catalog, {
          executor,
          ...repositoryOptions(args),
          release,
          version: stringOption(args, 'version'),
          predictions,
          gold,
          runId: stringOption(args, 'run-id'),
          since: sinceOption(args),
          instances: listOption(args, 'instances')
            .flatMap((value) => value.split(','))
            .filter((id) => id !== ''),
          timeoutSeconds: stringOption(args, 'timeout') === undefined ? undefined : wholeNumber(args, 'timeout', 1),
          workers: resolveWorkers(optionalWholeNumber(args, 'workers')),
          fresh: args.flags.get('fresh') === true,
          // REPOCOD's evaluator runs the tests with -x: its insertion comes with its way of running them.
          exitFirst: args.flags.get('exit-first') === true || insertion === 'repocod',
          insertion,
          outDir,
          onEvent: progressPrinter(io, ticker),
        }),
      );
      ticker.stop();
      io.out(formatSummary(summary));
      printReports(io, await evaluationReports(catalog, summary.runId), stringOption(args, 'html'));
      const failed = summary.reports.some(
        (entry) => entry.report.error_instances - entry.report.patch_failed_ids.length > 0,
      );
      return failed ? 1 : 0;
    } finally {
      ticker.stop();
    }
  } finally {
    await catalog.close();
  }
}

/** `--since DATE` as UTC, checked now (not a date, in the future: a ChangedSinceError naming --since). */
function sinceOption(args: ParsedArgs): string | undefined {
  const value = stringOption(args, 'since');
  return value === undefined ? undefined : parseChangedSince(value, new Date(), '--since');
}

/** --release DIR as it is; --hub ORG/NAME downloaded once into <out>/releases/. */
async function releaseFolder(args: ParsedArgs, io: CommandIO, outDir: string): Promise<string> {
  const folder = stringOption(args, 'release');
  const hub = stringOption(args, 'hub');
  if ((folder === undefined) === (hub === undefined))
    throw new RepocodError('usage', `give --release DIR or --hub ORG/NAME (one of them)\n\n${EVALUATE_USAGE}`);
  if (folder !== undefined) {
    for (const option of ['revision', 'hub-url'])
      if (stringOption(args, option) !== undefined)
        throw new RepocodError('usage', `--${option} goes with --hub ORG/NAME`);
    return folder;
  }
  const repo = parseHubRepo(hub as string, '--hub').id;
  const revision = stringOption(args, 'revision');
  const target = join(outDir, 'releases', `${repo.replace('/', '__')}${revision === undefined ? '' : `@${revision}`}`);
  if (existsSync(join(target, 'README.md'))) {
    io.err(`release ${repo}: already downloaded in ${target}\n`);
    return target;
  }
  mkdirSync(target, { recursive: true });
  const token =
    process.env.HF_TOKEN === undefined && process.env.HUGGING_FACE_HUB_TOKEN === undefined
      ? undefined
      : hubToken(process.env);
  const downloaded = await downloadHubRelease({
    repo,
    folder: target,
    revision,
    hubUrl: stringOption(args, 'hub-url') ?? process.env.HF_ENDPOINT,
    accessToken: token,
  });
  if (downloaded === null)
    throw new RepocodError('hub-failed', `${repo}: the Hub has no dataset card there, so no release`);
  io.err(
    `release ${repo}: ${downloaded.files.length} file(s) downloaded into ${target} ` +
      `(versions ${downloaded.versions.join(', ')})\n`,
  );
  return target;
}

function progressPrinter(io: CommandIO, ticker: ProgressTicker): (event: EvaluateEvent) => void {
  return (event) => {
    if (event.kind === 'evaluate-start') {
      io.err(
        `evaluation ${event.runId}: ${event.release} version ${event.version}, ${event.tasks} task(s), ` +
          `${event.predictions} prediction(s)\n`,
      );
      if (event.since !== null) io.err(`  ${sinceLine(event.since)}\n`);
      for (const problem of event.problems)
        io.err(`  ${problem.source}${problem.field === null ? '' : ` (${problem.field})`}: ${problem.message}\n`);
      return;
    }
    if (event.kind === 'evaluate-repository') {
      const counts = [
        `${event.repository}: ${event.predictions} prediction(s): ${event.jobs} to run on ${event.workers} worker(s),`,
        `${event.fromRuns} graded from stored runs, ${event.fromCatalog} kept from an earlier pass of this evaluation`,
      ];
      io.err(`${counts.join(' ')}\n`);
      ticker.step(0, event.predictions - event.fromCatalog, `${event.repository}: predictions evaluated`);
      return;
    }
    ticker.step(event.done, event.total, '');
    const line =
      `  ${event.done}/${event.total} ${event.model} ${event.instanceId}: ${event.outcome} ` +
      `(${event.detail}) · ${event.resolved} resolved`;
    if (io.interactive) io.err(`\r${line.slice(0, 160)}\u001b[K${event.done === event.total ? '\n' : ''}`);
    else io.err(`${line}\n`);
  };
}

/** What a run --since scored and left out, and why. */
function sinceLine(since: SinceScope): string {
  const leftOut = since.changedBefore.length + since.withoutBodyDate.length;
  return (
    `since ${since.since}: ${since.scored} task(s) scored, whose body changed on or after it; ${leftOut} left ` +
    `out (${since.changedBefore.length} changed before it, ${since.withoutBodyDate.length} without a body date)`
  );
}

function formatSummary(summary: EvaluateSummary): string {
  const ranNow = summary.evaluatedNow - summary.gradedFromRuns;
  const lines = [
    [
      `evaluation ${summary.runId}: ${summary.evaluatedNow} graded now (${ranNow} with tests run,`,
      `${summary.gradedFromRuns} from stored runs), ${summary.fromCatalog} kept from an earlier pass,`,
      `${summary.durationSeconds.toFixed(1)} s`,
    ].join(' '),
  ];
  if (summary.since !== null) lines.push(sinceLine(summary.since));
  if (summary.problems.length > 0) {
    lines.push(`${summary.problems.length} prediction(s) not evaluated:`);
    for (const problem of summary.problems)
      lines.push(`  ${problem.source}${problem.field === null ? '' : ` (${problem.field})`}: ${problem.message}`);
  }
  for (const { model, file } of summary.reports) lines.push(`report of ${model}: ${file}`);
  return `${lines.join('\n')}\n`;
}

function printReports(io: CommandIO, reports: readonly ModelReport[], html: string | undefined): void {
  for (const { report } of reports) io.out(`\n${reportText(report)}`);
  if (html === undefined) return;
  // One page per model: the file as given for one model, <name>.<model>.html beside it for several.
  for (const { model, report, rows } of reports) {
    const file = reports.length === 1 ? html : html.replace(/(\.html?)?$/, `.${modelFolder(model)}.html`);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, reportHtml(report, rows));
    io.out(`wrote ${file}\n`);
  }
}
