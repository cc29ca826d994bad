import { readFileSync } from 'node:fs';
import { RepocodError, resolveWorkers } from '@repocod/core';
import type { StatementTemplates, TasksSummary } from '@repocod/pipeline';
import { DEFAULT_CATALOG_PATH, openCatalog, runTasksCommand } from '@repocod/pipeline';
import { candidatesOption } from './candidates-option.js';
import { changedSinceOption, datedAgainstOption } from './changed-since-option.js';
import { LEVELS_HELP, levelsOption } from './levels-option.js';
import { withExecutor } from './executor-option.js';
import type { CommandIO } from './io.js';
import { startProgressLines } from './progress-line.js';
import type { ParsedArgs } from './parse-args.js';
import { recordStageSeconds } from './stage-seconds.js';
import { stringOption, optionalWholeNumber } from './parse-args.js';
import { referenceOption } from './reference-option.js';
import { repositoryOptions } from './repository-options.js';

export const TASKS_USAGE =
  `usage: repocod tasks <repository> [--exact] [--templates FILE] [--workers N] [--manifest ` +
  `FILE]
                     [--source NAME=PATH] [--db FILE] [--executor URL] [--namespace NAME] [--candidates MODE]
                     [--levels MODE] [--reference NAME] [--at NAME=REF] [--changed-since DATE]
                     [--dated-against NAME=OLDER_SDIST]

Turns the mined functions with relevant tests into tasks: instance id, context level with the
dependencies behind it, problem statements (from --templates, a JSON file {"code": "...", "test":
"..."} with {repository} {file} {qualname} {prompt} {level} {tests}), pre/gold patches of code and
tests, and their checks (round trip, git apply, the pre state collects). --exact takes the results of
\`repocod mine --exact\`. Exit code 0 once the tasks are built, also when some fail their checks (they
are listed, kept and never selected); non-zero when the stage could not run. A mined function outside
--candidates MODE (see repocod mine) is not made a task: modes narrower than the one mined need no new mining;
nor is one whose body did not change after --changed-since DATE (see repocod mine; --dated-against NAME=OLDER_SDIST
dates a source without history against an older release, as there).
With --reference NAME (repocod reference) the tasks are exactly the mined functions the reference's rows resolve
to, candidates of ours or not (mine them with repocod mine --reference NAME first).
Every task is labelled under each context-level mode (kept in the catalog, shown by repocod show);
${LEVELS_HELP}`;

export async function tasksCommand(args: ParsedArgs, io: CommandIO): Promise<number> {
  const [repository, extra] = args.positionals;
  if (repository === undefined || extra !== undefined) throw new RepocodError('usage', TASKS_USAGE);
  const templatesFile = stringOption(args, 'templates');
  const templates = templatesFile === undefined ? undefined : readTemplates(templatesFile);
  const candidates = candidatesOption(args);
  const changedSince = changedSinceOption(args);
  const datedAgainst = datedAgainstOption(args, changedSince, [repository]);
  const catalog = await openCatalog(stringOption(args, 'db') ?? DEFAULT_CATALOG_PATH);
  const ticker = startProgressLines(io, '  ');
  try {
    const started = performance.now();
    const summary = await withExecutor(args, io, ({ executor }) =>
      runTasksCommand(catalog, {
        executor,
        ...repositoryOptions(args),
        repository,
        workers: resolveWorkers(optionalWholeNumber(args, 'workers')),
        mode: args.flags.get('exact') === true ? 'exact' : 'fast',
        templates,
        candidates,
        changedSince,
        datedAgainst,
        levels: levelsOption(args),
        ...referenceOption(args, candidates),
        onEvent: (event) => {
          if (event.kind === 'tasks-built') {
            io.err(`${repository}: ${event.tasks} tasks built; checking their patches\n`);
            ticker.step(0, event.tasks, 'task patches checked');
          } else {
            ticker.step(event.done, event.total, 'task patches checked');
            if (io.interactive)
              io.err(`\r  checked ${event.done}/${event.total}${event.done === event.total ? '\n' : ''}`);
          }
        },
      }),
    );
    io.out(formatTasksSummary(summary));
    await recordStageSeconds(catalog, summary.repository, 'tasks', started);
    // Tasks that fail their checks are data (shown here, kept, never selected), not a failure of the stage.
    return 0;
  } finally {
    ticker.stop();
    await catalog.close();
  }
}

function readTemplates(file: string): StatementTemplates {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new RepocodError(
      'config-invalid',
      `${file}: cannot read the templates (${error instanceof Error ? error.message : String(error)})`,
    );
  }
  const record = value as Record<string, unknown>;
  if (
    typeof record !== 'object' ||
    record === null ||
    typeof record.code !== 'string' ||
    typeof record.test !== 'string' ||
    Object.keys(record).some((key) => key !== 'code' && key !== 'test')
  ) {
    throw new RepocodError('config-invalid', `${file}: templates must be {"code": "...", "test": "..."}`);
  }
  return { code: record.code, test: record.test };
}

export function formatTasksSummary(summary: TasksSummary): string {
  const lines = [
    `${summary.repository}: ${summary.tasks.length} tasks in ${summary.durationSeconds.toFixed(1)} s`,
    `  levels     ${summary.levelMode}: ${['self-contained', 'file-level', 'repo-level']
      .map((level) => `${level} ${summary.byLevel[level] ?? 0}`)
      .join(', ')}`,
    `  checks     ${summary.tasks.length - summary.failedChecks.length} passed (round trip, git apply, the pre state ` +
      `collects), ${summary.failedChecks.length} failed`,
  ];
  for (const failed of summary.failedChecks.slice(0, 10))
    lines.push(`    ${failed.instanceId}: ${failed.checks.messages.join('; ').split('\n')[0] ?? ''}`);
  const atCollection = summary.bodyNeededAtCollection;
  if (atCollection.length > 0) {
    const named = `${atCollection.slice(0, 5).join(', ')}${atCollection.length > 5 ? ', …' : ''}`;
    const what = 'need the body while their tests are collected (they fail there without it)';
    lines.push(`  collection ${atCollection.length} task(s) ${what}: ${named}`);
  }
  return `${lines.join('\n')}\n`;
}
