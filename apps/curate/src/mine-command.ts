import { RepocodError, resolveRepeat, resolveWorkers } from '@repocod/core';
import type {
  LiteMargin,
  LiteMiningSummary,
  MineCommandEvent,
  MineStepEvent,
  MineSummary,
  MiningTracebacks,
  ProgressTicker,
  SelectionSpec,
} from '@repocod/pipeline';
import {
  DEFAULT_CATALOG_PATH,
  runLiteMineCommand,
  loadExtractionConfig,
  runMineCommand,
  miningPhaseItem,
  openCatalog,
} from '@repocod/pipeline';
import { CANDIDATES_HELP, candidatesOption } from './candidates-option.js';
import { CHANGED_SINCE_HELP, changedSinceOption, datedAgainstOption } from './changed-since-option.js';
import { withExecutor } from './executor-option.js';
import type { CommandIO } from './io.js';
import { startProgressLines } from './progress-line.js';
import type { ParsedArgs } from './parse-args.js';
import { recordStageSeconds } from './stage-seconds.js';
import { listOption, stringOption, optionalWholeNumber } from './parse-args.js';
import { marginOption, selectionSpecOption } from './spec-option.js';
import { referenceLine, referenceOption } from './reference-option.js';
import { repositoryOptions } from './repository-options.js';

export const MINE_USAGE =
  `usage: repocod mine <repository> [--exact] [--only QUALNAME]... [--confirm] [--workers N] ` +
  `[--repeat K]
                    [--tracebacks native|pytest] [--config FILE] [--manifest FILE] [--source NAME=PATH] [--db FILE]
                    [--at NAME=REF] [--executor URL] [--namespace NAME] [--candidates MODE] [--reference NAME]
                    [--changed-since DATE] [--dated-against NAME=OLDER_SDIST]
       repocod mine --lite <repository>... [--repo NAME]... [--spec FILE] [--levels MODE] [--margin 20%|N]
                    [same options but --only]

Finds the relevant tests (FAIL_TO_PASS) of every candidate function: the tests that pass in all K
baseline runs (default 3) and fail when the function's body is replaced by an assertion failure.
The default fast mode runs each function's mutation against the tests a coverage map names, many
mutations per pytest process; --exact runs the whole suite per function, as REPOCOD did. --confirm
reruns every in-process answer in a fresh process and reports any difference. --only limits the run
to functions by qualified name (or file::qualname). --tracebacks pytest formats the failures of
mutation runs as pytest does by default (slower; native is Python's own format). Results go to the
catalog as each function is done; a rerun resumes with the functions that have none. --reference NAME
mines exactly the functions a reference's rows of the repository resolve to (repocod reference), whether
or not our candidate filter admits them; rows that resolve to none are listed.

--lite mines only what the Lite selection can pick, over all the repositories given (as arguments
or with --repo): candidates in the selection's order per context level (the spec's score, default
lines(prompt) × lines(solution), known before any test runs), in rounds, until each level has its
quota plus a margin of tasks (--margin, default 20% of the quota, or a number of tasks) and every
candidate ranked above that cut or tied with its score is mined: the selection is then the one that
mining every candidate would give. A round mines the repositories in the order given. --spec FILE
is select's spec (its score and filter may use only the columns a task has before mining); a
function competes in the quota of its level under --levels MODE (see repocod tasks).
${CANDIDATES_HELP}
${CHANGED_SINCE_HELP}`;

export async function mineCommand(args: ParsedArgs, io: CommandIO): Promise<number> {
  if (args.flags.get('lite') === true) {
    if (args.flags.has('reference'))
      throw new RepocodError(
        'usage',
        '--reference mines every function of the reference; Lite-first (--lite) plans none',
      );
    return liteMineCommand(args, io);
  }
  for (const option of ['margin', 'spec', 'repo', 'levels']) {
    if (args.flags.has(option)) throw new RepocodError('usage', `--${option} goes with --lite\n\n${MINE_USAGE}`);
  }
  const [repository, extra] = args.positionals;
  if (repository === undefined || extra !== undefined) throw new RepocodError('usage', MINE_USAGE);
  const configPath = stringOption(args, 'config');
  const extraction = configPath === undefined ? undefined : loadExtractionConfig(configPath);
  const candidates = candidatesOption(args);
  // Read and checked before the catalog is opened: a wrong release must not surface after the checkout.
  const changedSince = changedSinceOption(args);
  const datedAgainst = datedAgainstOption(args, changedSince, [repository]);
  const catalog = await openCatalog(stringOption(args, 'db') ?? DEFAULT_CATALOG_PATH);
  const ticker = startProgressLines(io, '    ');
  ticker.step(0, 0, `${repository}: checkout, environment and functions`);
  try {
    const started = performance.now();
    const summary = await withExecutor(args, io, ({ executor }) =>
      runMineCommand(catalog, {
        executor,
        ...repositoryOptions(args),
        repository,
        mode: args.flags.get('exact') === true ? 'exact' : 'fast',
        only: listOption(args, 'only'),
        confirm: args.flags.get('confirm') === true,
        workers: resolveWorkers(optionalWholeNumber(args, 'workers')),
        repeat: resolveRepeat(optionalWholeNumber(args, 'repeat')),
        tracebacks: tracebacksOption(stringOption(args, 'tracebacks')),
        extraction,
        candidates,
        changedSince,
        datedAgainst,
        ...referenceOption(args, candidates),
        onEvent: progressPrinter(io, ticker),
      }),
    );
    io.out(formatMineSummary(summary));
    // Under the catalog name it was mined as: an era's own (catalog-name.ts).
    await recordStageSeconds(catalog, summary.repository, 'mine', started);
    const errors = summary.functions.filter((fn) => fn.status === 'error').length;
    return errors === 0 && summary.mismatches.length === 0 ? 0 : 1;
  } finally {
    ticker.stop();
    await catalog.close();
  }
}

function tracebacksOption(value: string | undefined): MiningTracebacks | undefined {
  if (value === undefined || value === 'native' || value === 'pytest') return value;
  throw new RepocodError('usage', `--tracebacks must be native or pytest (got ${value})`);
}

const PHASE_NAMES = {
  baseline: 'baseline (traced run for the coverage map + plain runs)',
  mutation: 'mutations',
  fallback: 'fallback: one process per mutation',
  confirm: 'confirmation: one fresh process per in-process answer',
  reruns: 'reruns: the FAIL_TO_PASS tests, k - 1 more runs (baseline_reruns: relevant)',
} as const;

/**
 * Progress on stderr: a line per phase, a progress line every interval with the phase's jobs done
 * (the ticker's); on a terminal, the functions done redrawn in place.
 */
function progressPrinter(io: CommandIO, ticker: ProgressTicker): (event: MineCommandEvent | MineStepEvent) => void {
  return (event) => {
    switch (event.kind) {
      case 'prepared':
        io.err(
          `${event.prepared.entry.name} at ${event.prepared.checkout.baseCommit.slice(0, 12)}: environment ready, ` +
            `${event.prepared.worktrees.length} worktree(s)\n`,
        );
        ticker.step(0, 0, 'extracting the functions');
        break;
      case 'extracted':
        io.err(`  ${event.summary.candidates} candidate functions, ${event.targets} to mine\n`);
        break;
      case 'targets':
        // A round of Lite-first mining: the repositories were prepared and extracted before the first.
        io.err(`  ${event.targets} function(s) to mine\n`);
        break;
      case 'phase-start': {
        const resumed = event.resumed > 0 ? ` (${event.resumed} more finished by an earlier run)` : '';
        io.err(
          `  ${PHASE_NAMES[event.phase]}: ${event.jobs} pytest run(s)${
            event.functions > 0 ? ` for ${event.functions} function(s)` : ''
          }${resumed}\n`,
        );
        ticker.step(0, event.jobs, miningPhaseItem(event));
        break;
      }
      case 'shard-incomplete':
        io.err(
          `  ! a baseline shard (${event.shard}) ended with ${event.status} (limit ${event.limitSeconds} s): its ` +
            `${event.reported} reported test(s) count, the others are left out\n`,
        );
        break;
      case 'phase-done':
        if (io.interactive) io.err('\n');
        io.err(
          `    done in ${event.stats.wallSeconds.toFixed(1)} s: ${event.stats.processes} process(es), ` +
            `${event.stats.testExecutions} test executions\n`,
        );
        break;
      case 'function-done':
        if (io.interactive)
          io.err(`\r    ${event.done}/${event.total} functions mined (${event.result.qualname.slice(0, 40)})\u001b[K`);
        break;
      case 'job-done':
        ticker.step(event.done, event.total, '');
        break;
      case 'fallback':
        break;
    }
  };
}

export function formatMineSummary(summary: MineSummary): string {
  const functions = summary.functions;
  const withTests = functions.filter((fn) => fn.status === 'tests');
  const noTests = functions.filter((fn) => fn.status === 'no-tests');
  const errors = functions.filter((fn) => fn.status === 'error');
  const counts = withTests.map((fn) => fn.tests.length);
  const mean = counts.length === 0 ? 0 : counts.reduce((sum, count) => sum + count, 0) / counts.length;
  const flaky = summary.baseline.tests.filter((test) => test.status === 'flaky');
  const methods = new Map<string, number>();
  for (const fn of functions) methods.set(fn.method, (methods.get(fn.method) ?? 0) + 1);
  const phases = summary.phases.map(
    (phase) =>
      `${phase.phase} ${phase.wallSeconds.toFixed(1)} s (${phase.processes} processes, ${phase.testExecutions} test ` +
      `executions)`,
  );
  const lines = [
    `${summary.repository} at ${summary.baseCommit.slice(0, 12)}: ${summary.mode} mode, ${summary.workers} ` +
      `worker(s), ` +
      `key ${summary.miningKey.slice(0, 12)}`,
    `  candidates       ${summary.candidates}${
      functions.length === summary.candidates ? '' : ` (${functions.length} chosen with --only)`
    }; ${functions.length - summary.resumed} mined now, ${summary.resumed} from an earlier run`,
    ...(summary.reference === null ? [] : [referenceLine(summary.reference)]),
    `  with tests       ${withTests.length}   no tests ${noTests.length}   errors ${errors.length}`,
    `  tests/function   mean ${mean.toFixed(1)}, max ${Math.max(0, ...counts)}`,
    `  baseline         ${summary.baseline.tests.length} tests, ${summary.baseline.passing.size} passing in every ` +
      `run, ` +
      `${flaky.length} flaky`,
    `  methods          ${[...methods].map(([method, count]) => `${method} ${count}`).join(', ') || 'none'}`,
    `  phases           ${
      phases.length === 0 ? 'none: everything came from the catalog' : phases.join('\n                   ')
    }`,
    `  total            ${summary.wallSeconds.toFixed(1)} s`,
  ];
  if (summary.confirmed > 0)
    lines.push(
      `  confirmed        ${summary.confirmed} in-process answers in fresh processes: ` +
        `${
          summary.mismatches.length === 0
            ? 'all identical'
            : `${summary.mismatches.length} DIFFERENT (the fresh-process sets were kept)`
        }`,
    );
  for (const mismatch of summary.mismatches.slice(0, 10))
    lines.push(
      `    ${mismatch.qualname}: in-process [${mismatch.inProcess.join(', ')}] vs fresh ` +
        `[${mismatch.freshProcess.join(', ')}]`,
    );
  lines.push(
    ...listed(
      'flaky tests',
      flaky.map((test) => `${test.nodeId}: ${test.reason ?? ''}`),
    ),
  );
  lines.push(
    ...listed(
      'functions without relevant tests (not tasks)',
      noTests.map((fn) => `${fn.qualname}: ${fn.reason ?? ''}`),
    ),
  );
  lines.push(
    ...listed(
      'errors (retried on the next run)',
      errors.map((fn) => `${fn.qualname}: ${fn.reason ?? ''}`),
    ),
  );
  return `${lines.join('\n')}\n`;
}

function listed(title: string, items: readonly string[], limit = 10): string[] {
  if (items.length === 0) return [];
  return [
    `  ${title}:`,
    ...items.slice(0, limit).map((item) => `    ${item}`),
    ...(items.length > limit ? [`    … and ${items.length - limit} more (repocod sql on relevant_tests)`] : []),
  ];
}

async function liteMineCommand(args: ParsedArgs, io: CommandIO): Promise<number> {
  if (args.flags.has('only'))
    throw new RepocodError(
      'usage',
      `--only does not go with --lite: Lite-first mining chooses the functions itself\n\n${MINE_USAGE}`,
    );
  const repositories = [...new Set([...args.positionals, ...listOption(args, 'repo')])];
  if (repositories.length === 0)
    throw new RepocodError(
      'usage',
      `--lite needs the repositories to mine, as arguments or with --repo\n\n${MINE_USAGE}`,
    );
  const spec = selectionSpecOption(args);
  const margin = marginOption(args);
  const configPath = stringOption(args, 'config');
  const extraction = configPath === undefined ? undefined : loadExtractionConfig(configPath);
  const candidates = candidatesOption(args);
  const changedSince = changedSinceOption(args);
  const datedAgainst = datedAgainstOption(args, changedSince, repositories);
  const catalog = await openCatalog(stringOption(args, 'db') ?? DEFAULT_CATALOG_PATH);
  const ticker = startProgressLines(io, '    ');
  ticker.step(0, 0, `${repositories.join(', ')}: checkouts, environments, functions and their ranking`);
  try {
    const printer = progressPrinter(io, ticker);
    const summary = await withExecutor(args, io, ({ executor }) =>
      runLiteMineCommand(catalog, {
        executor,
        ...repositoryOptions(args),
        repositories,
        spec,
        margin,
        mode: args.flags.get('exact') === true ? 'exact' : 'fast',
        confirm: args.flags.get('confirm') === true,
        workers: resolveWorkers(optionalWholeNumber(args, 'workers')),
        repeat: resolveRepeat(optionalWholeNumber(args, 'repeat')),
        tracebacks: tracebacksOption(stringOption(args, 'tracebacks')),
        extraction,
        candidates,
        changedSince,
        datedAgainst,
        onEvent: (event) => {
          if (event.kind === 'lite-ranked')
            io.err(`${event.repository}: ${event.candidates} candidate(s), ${event.ranked} ranked by the spec\n`);
          if (event.kind === 'lite-round')
            io.err(`round ${event.round}: ${event.plan.next.length} function(s) in ${event.repositories.join(', ')}\n`);
          if (event.kind === 'lite-mine') printer(event.event);
        },
      }),
    );
    io.out(formatLiteSummary(summary, spec, margin));
    return 0;
  } finally {
    ticker.stop();
    await catalog.close();
  }
}

/** Per run: functions mined against candidates, per level found/target/quota and where it was cut, the rounds. */
export function formatLiteSummary(summary: LiteMiningSummary, spec: SelectionSpec, margin: LiteMargin): string {
  const marginText = 'tasks' in margin ? `${margin.tasks} task(s)` : `${margin.percent}% of each quota`;
  const earlier = summary.mined - summary.minedNow;
  const lines = [
    `Lite-first mining: score ${spec.score}; filter ${spec.filter}; margin ${marginText}`,
    `  rounds           ${summary.rounds}`,
    `  mined            ${summary.mined} of ${summary.candidates} candidates (${summary.minedNow} now, ${earlier} ` +
      `from ` +
      `an earlier run)`,
  ];
  for (const level of summary.plan.levels) {
    const state =
      level.state === 'enough'
        ? 'enough'
        : level.state === 'exhausted'
          ? 'every candidate mined, fewer than the target'
          : 'not finished';
    const cut = level.cutoff === null ? '' : `; cut-off score ${level.cutoff}`;
    lines.push(
      `  ${level.level.padEnd(16)} found ${level.found}/${level.target} (quota ${level.quota}); ${level.mined} of ` +
        `${level.candidates} mined${cut}; ${state}`,
    );
  }
  for (const repository of summary.repositories) {
    lines.push(
      `  ${repository.repository.padEnd(16)} ${repository.mined} of ${repository.ranked} ranked candidates mined ` +
        `(${repository.minedNow} now), ${repository.withTests} with relevant tests`,
    );
  }
  for (const repository of summary.dropped) lines.push(`  ${repository}: dropped, its mining failed`);
  return `${lines.join('\n')}\n`;
}
