import { isRepocodError } from '@repocod/core';
import { EXTRACT_USAGE, extractCommand } from './extract-command.js';
import type { CommandIO } from './io.js';
import { assertKnownOptions, parseArgs } from './parse-args.js';
import { SQL_USAGE, sqlCommand } from './sql-command.js';
import { ENV_USAGE, envCommand } from './env-command.js';
import { RUN_USAGE, runCommand } from './run-command.js';
import { MINE_USAGE, mineCommand } from './mine-command.js';
import { TASKS_USAGE, tasksCommand } from './tasks-command.js';
import { SELECT_USAGE, selectCommand } from './select-command.js';
import { SHOW_USAGE, showCommand } from './show-command.js';
import { PUBLISH_USAGE, publishCommand } from './publish-command.js';
import { VALIDATE_USAGE, validateCommand } from './validate-command.js';
import { CURATE_OPTIONS, CURATE_USAGE, curateCommand } from './curate-command.js';
import { EXECUTOR_OPTIONS, EXECUTOR_USAGE } from './executor-option.js';
import { WORKER_USAGE, workerCommand } from './worker-command.js';
import { RECORD_USAGE, recordCommand } from './record-command.js';
import { CHECKPOINT_USAGE, checkpointCommand } from './checkpoint-command.js';

const VALUE_OPTIONS = new Set([
  'db',
  'margin',
  'name',
  'config',
  'workers',
  'width',
  'manifest',
  'source',
  'patch',
  'tests',
  'repeat',
  'timeout',
  'only',
  'tracebacks',
  'templates',
  'spec',
  'version',
  'out',
  'selection',
  'repo',
  'keep',
  'push',
  'hub-url',
  'executor',
  'namespace',
  'redis',
  'concurrency',
  'prepare',
  'state',
  'lock-seconds',
  'record-out',
  'dir',
]);

export const USAGE = `repocod: build REPOCOD-style benchmarks from Python repositories

commands:
  extract <repo-path>   functions, complexity and lengths into the catalog
  sql "<query>"         run SQL on the catalog
  env <repository>      check out a repository and make its environment
  run <repository>      run its tests (with patches) in isolated worktrees
  mine <repository>     find every candidate function's relevant tests (FAIL_TO_PASS);
                        mine --lite <repository>... only what the Lite selection can pick
  tasks <repository>    tasks from the mined functions: level, statements, pre/gold patches
  select                the Lite subset over all tasks (DuckDB SQL), stored with its spec
  show <instance_id>    a task, with its prompt, its diffs and why it has its level
  validate              check every selected task with the shared runner (k runs, flaky tests found)
  publish --version V   the validated tasks as a release folder (Parquet, dataset card), --push to the Hub
  record --repo NAME    the committed record of a rebuild (a line per task, a header); --lite: the selection
  checkpoint save|restore  a rebuild's runs and mining as committed Parquet files, to resume on another machine
  curate                the whole flow: the TUI on a terminal, headless with --yes (or off a terminal)
  worker --redis URL    run the jobs of a coordinator (--executor URL) on this machine

${EXTRACT_USAGE}

${SQL_USAGE}

${ENV_USAGE}

${RUN_USAGE}

${MINE_USAGE}

${TASKS_USAGE}

${SELECT_USAGE}

${SHOW_USAGE}

${VALIDATE_USAGE}

${PUBLISH_USAGE}

${RECORD_USAGE}

${CHECKPOINT_USAGE}

${CURATE_USAGE}

${WORKER_USAGE}

Where run, mine, tasks, validate and curate run their pytest jobs:
${EXECUTOR_USAGE}
`;

/** Each command's own usage, printed by `repocod <command> --help` (or -h). */
const COMMAND_USAGE: Readonly<Record<string, string>> = {
  extract: EXTRACT_USAGE,
  sql: SQL_USAGE,
  env: ENV_USAGE,
  run: RUN_USAGE,
  mine: MINE_USAGE,
  tasks: TASKS_USAGE,
  select: SELECT_USAGE,
  show: SHOW_USAGE,
  validate: VALIDATE_USAGE,
  publish: PUBLISH_USAGE,
  record: RECORD_USAGE,
  checkpoint: CHECKPOINT_USAGE,
  curate: CURATE_USAGE,
  worker: `${WORKER_USAGE}\n\nWhere run, mine, tasks, validate and curate run their pytest jobs:\n${EXECUTOR_USAGE}`,
};

/**
 * docs/cli.md: the commands and each command's usage, exactly as `--help` prints them, so that the
 * reference never drifts from the tool (`pnpm repocod help --markdown > docs/cli.md`; a test compares).
 */
export function cliReference(): string {
  const overview = USAGE.slice(0, USAGE.indexOf('\n\n', USAGE.indexOf('commands:'))).trimEnd();
  const sections = Object.entries(COMMAND_USAGE).map(
    ([command, usage]) => `## repocod ${command}\n\n\`\`\`text\n${usage.trimEnd()}\n\`\`\`\n`,
  );
  return [
    '# `repocod` command reference',
    '',
    "Generated from the commands' `--help` by `pnpm repocod help --markdown > docs/cli.md`: do not edit.",
    '',
    '```text',
    overview,
    '```',
    '',
    ...sections.map((section) => `${section}`),
  ]
    .join('\n')
    .replace(/\n+$/, '\n');
}

/** Runs one command; returns the exit code (0 ok, 1 failed, 2 usage). Never throws. */
export async function main(argv: readonly string[], io: CommandIO): Promise<number> {
  try {
    if (argv.includes('--help') || argv.includes('-h')) {
      const command = argv.find((arg) => !arg.startsWith('-'));
      io.out(command !== undefined && COMMAND_USAGE[command] !== undefined ? `${COMMAND_USAGE[command]}\n` : USAGE);
      return 0;
    }
    const args = parseArgs(argv, VALUE_OPTIONS);
    switch (args.command) {
      case 'extract':
        assertKnownOptions(args, ['db', 'name', 'config', 'workers', 'jsonl']);
        return await extractCommand(args, io);
      case 'sql':
        assertKnownOptions(args, ['db', 'width']);
        return await sqlCommand(args, io);
      case 'env':
        assertKnownOptions(args, ['manifest', 'source', 'fresh']);
        return await envCommand(args, io);
      case 'run':
        assertKnownOptions(args, [
          'manifest',
          'source',
          'fresh',
          'patch',
          'tests',
          'all',
          'workers',
          'repeat',
          'timeout',
          'db',
          ...EXECUTOR_OPTIONS,
        ]);
        return await runCommand(args, io);
      case 'mine':
        assertKnownOptions(args, [
          'manifest',
          'source',
          'db',
          'exact',
          'only',
          'confirm',
          'workers',
          'repeat',
          'config',
          'tracebacks',
          'lite',
          'repo',
          'spec',
          'margin',
          ...EXECUTOR_OPTIONS,
        ]);
        return await mineCommand(args, io);
      case 'tasks':
        assertKnownOptions(args, ['manifest', 'source', 'db', 'exact', 'templates', 'workers', ...EXECUTOR_OPTIONS]);
        return await tasksCommand(args, io);
      case 'select':
        assertKnownOptions(args, ['db', 'spec', 'explain']);
        return await selectCommand(args, io);
      case 'show':
        assertKnownOptions(args, ['db']);
        return await showCommand(args, io);
      case 'validate':
        assertKnownOptions(args, [
          'db',
          'selection',
          'repo',
          'repeat',
          'retry-failed',
          'narrow',
          'gold-runs',
          'fresh',
          'timeout',
          'workers',
          'manifest',
          'source',
          ...EXECUTOR_OPTIONS,
        ]);
        return await validateCommand(args, io);
      case 'publish':
        assertKnownOptions(args, ['db', 'version', 'out', 'selection', 'keep', 'push', 'hub-url', 'dry-run']);
        return await publishCommand(args, io);
      case 'record':
        assertKnownOptions(args, ['repo', 'lite', 'out', 'db', 'selection', 'manifest']);
        return await recordCommand(args, io);
      case 'checkpoint':
        assertKnownOptions(args, ['dir', 'db']);
        return await checkpointCommand(args, io);
      case 'curate':
        assertKnownOptions(args, CURATE_OPTIONS);
        return await curateCommand(args, io, io.terminal);
      case 'worker':
        assertKnownOptions(args, [
          'redis',
          'concurrency',
          'prepare',
          'state',
          'namespace',
          'lock-seconds',
          'manifest',
          'source',
        ]);
        return await workerCommand(args, io);
      case 'help':
        assertKnownOptions(args, ['markdown']);
        io.out(args.flags.get('markdown') === true ? cliReference() : USAGE);
        return 0;
      case undefined:
        io.err(USAGE);
        return 2;
      default:
        io.err(`error: unknown command "${args.command}"\n\n${USAGE}`);
        return 2;
    }
  } catch (error) {
    if (isRepocodError(error)) {
      io.err(`error: ${error.message}\n`);
      return error.code === 'usage' ? 2 : 1;
    }
    io.err(`internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    return 1;
  }
}
