import { CHECKPOINT_USAGE, checkpointCommand } from './checkpoint-command.js';
import { COST_USAGE, costCommand } from './cost-command.js';
import { CURATE_USAGE, curateCommand } from './curate-command.js';
import { ENV_USAGE, envCommand } from './env-command.js';
import { EVALUATE_USAGE, evaluateCommand } from './evaluate-command.js';
import { PROMPTS_USAGE, promptsCommand } from './prompts-command.js';
import { EXECUTOR_USAGE } from './executor-option.js';
import { EXTRACT_USAGE, extractCommand } from './extract-command.js';
import type { CommandIO } from './io.js';
import { MANIFEST_USAGE, manifestCommand } from './manifest-command.js';
import { MINE_USAGE, mineCommand } from './mine-command.js';
import type { ParsedArgs } from './parse-args.js';
import { PUBLISH_USAGE, publishCommand } from './publish-command.js';
import { REBUILD_USAGE, rebuildCommand } from './rebuild-command.js';
import { RECORD_USAGE, recordCommand } from './record-command.js';
import { REFERENCE_USAGE, referenceCommand } from './reference-command.js';
import { REPORT_USAGE, reportCommand } from './report-command.js';
import { RUN_USAGE, runCommand } from './run-command.js';
import { SELECT_USAGE, selectCommand } from './select-command.js';
import { SHOW_USAGE, showCommand } from './show-command.js';
import { SQL_USAGE, sqlCommand } from './sql-command.js';
import { TASKS_USAGE, tasksCommand } from './tasks-command.js';
import type { OptionKind } from './usage-options.js';
import { usageOptions } from './usage-options.js';
import { VALIDATE_USAGE, validateCommand } from './validate-command.js';
import { WORKER_USAGE, workerCommand } from './worker-command.js';

/**
 * Every command, once: its line in the overview, its usage (whose synopsis declares its options, see
 * usage-options.ts) and what runs it. Parsing, the unknown-option error, `--help`, the overview and
 * docs/cli.md all come from this table.
 */
export interface CommandSpec {
  readonly name: string;
  /** Its line(s) under `commands:` in the overview, without the indent. */
  readonly overview: string;
  readonly usage: string;
  /** Printed after the usage by `--help` and in docs/cli.md, not part of the synopsis. */
  readonly help?: string;
  readonly run: (args: ParsedArgs, io: CommandIO) => Promise<number>;
}

const JOBS_HELP = `How run, mine, tasks, validate, evaluate and curate run their pytest jobs:\n${EXECUTOR_USAGE}`;

export const COMMANDS: readonly CommandSpec[] = [
  {
    name: 'extract',
    overview: 'extract <repo-path>   functions, complexity and lengths into the catalog',
    usage: EXTRACT_USAGE,
    run: extractCommand,
  },
  { name: 'sql', overview: 'sql "<query>"         run SQL on the catalog', usage: SQL_USAGE, run: sqlCommand },
  {
    name: 'cost',
    overview: "cost                  what the flow's jobs have cost, per repository, stage and phase",
    usage: COST_USAGE,
    run: costCommand,
  },
  {
    name: 'env',
    overview: 'env <repository>      check out a repository and make its environment',
    usage: ENV_USAGE,
    run: envCommand,
  },
  {
    name: 'manifest',
    overview:
      'manifest add <repository> --source PATH --manifest FILE   write and check a whole entry for a new repository\n' +
      'manifest derive <repository> --at NAME=REF   propose its recipe at another commit, from its files',
    usage: MANIFEST_USAGE,
    run: manifestCommand,
  },
  {
    name: 'run',
    overview: 'run <repository>      run its tests (with patches) in isolated worktrees',
    usage: RUN_USAGE,
    run: runCommand,
  },
  {
    name: 'mine',
    overview:
      "mine <repository>     find every candidate function's relevant tests (FAIL_TO_PASS);\n" +
      '                      mine --lite <repository>... only what the Lite selection can pick',
    usage: MINE_USAGE,
    run: mineCommand,
  },
  {
    name: 'tasks',
    overview: 'tasks <repository>    tasks from the mined functions: level, statements, pre/gold patches',
    usage: TASKS_USAGE,
    run: tasksCommand,
  },
  {
    name: 'select',
    overview: 'select                the Lite subset over all tasks (DuckDB SQL), stored with its spec',
    usage: SELECT_USAGE,
    run: selectCommand,
  },
  {
    name: 'show',
    overview: 'show <instance_id>    a task, with its prompt, its diffs and why it has its level',
    usage: SHOW_USAGE,
    run: showCommand,
  },
  {
    name: 'validate',
    overview: 'validate              check every selected task with the shared runner (k runs, flaky tests found)',
    usage: VALIDATE_USAGE,
    run: validateCommand,
  },
  {
    name: 'publish',
    overview:
      'publish --version V   the validated tasks as a release folder (Parquet, dataset card), --push to the Hub',
    usage: PUBLISH_USAGE,
    run: publishCommand,
  },
  {
    name: 'evaluate',
    overview:
      "evaluate --predictions F  a model's predictions on a release, on the same runner (--gold: the gold patches)",
    usage: EVALUATE_USAGE,
    run: evaluateCommand,
  },
  {
    name: 'prompts',
    overview:
      "prompts --release DIR  each task as REPOCOD's inference prompts a model, under each setting of its paper",
    usage: PROMPTS_USAGE,
    run: promptsCommand,
  },
  {
    name: 'record',
    overview:
      'record --repo NAME    the committed record of a rebuild (a line per task, a header); --lite: the selection',
    usage: RECORD_USAGE,
    run: recordCommand,
  },
  {
    name: 'report',
    overview:
      "report                our tasks beside REPOCOD's published tables, cell by cell; a fidelity line per repository",
    usage: REPORT_USAGE,
    run: reportCommand,
  },
  {
    name: 'reference',
    overview: "reference add|show     a published task list (REPOCOD's, a release) read and resolved to our functions",
    usage: REFERENCE_USAGE,
    run: referenceCommand,
  },
  {
    name: 'checkpoint',
    overview:
      "checkpoint save|restore  a rebuild's runs and mining as committed Parquet files, to resume on another machine",
    usage: CHECKPOINT_USAGE,
    run: checkpointCommand,
  },
  {
    name: 'rebuild',
    overview: 'rebuild lite          the committed Lite made again from its checkpoints, and checked byte for byte',
    usage: REBUILD_USAGE,
    run: rebuildCommand,
  },
  {
    name: 'curate',
    overview: 'curate                the whole flow: the TUI on a terminal, headless with --yes (or off a terminal)',
    usage: CURATE_USAGE,
    run: (args, io) => curateCommand(args, io, io.terminal),
  },
  {
    name: 'worker',
    overview: 'worker --redis URL    run the jobs of a coordinator (--executor URL) on this machine',
    usage: WORKER_USAGE,
    help: JOBS_HELP,
    run: workerCommand,
  },
];

/** The options of a command, from its synopsis. */
export function commandOptions(command: CommandSpec): ReadonlyMap<string, OptionKind> {
  return usageOptions(command.usage);
}

/** `repocod <command> --help`: its usage, and what follows it. */
export function commandHelp(command: CommandSpec): string {
  return command.help === undefined ? command.usage : `${command.usage}\n\n${command.help}`;
}

/** `repocod help` and the overview printed on a usage error. */
export function overviewUsage(commands: readonly CommandSpec[]): string {
  const lines = commands.map((command) => `  ${command.overview.replaceAll('\n', '\n  ')}`).join('\n');
  const usages = commands.map((command) => command.usage).join('\n\n');
  return (
    `repocod: build REPOCOD-style benchmarks from Python ` +
    `repositories\n\ncommands:\n${lines}\n\n${usages}\n\n${JOBS_HELP}\n`
  );
}
