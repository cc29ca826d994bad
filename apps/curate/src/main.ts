import { isRepocodError } from '@repocod/core';
import { EXTRACT_USAGE, extractCommand } from './extract-command.js';
import type { CommandIO } from './io.js';
import { assertKnownOptions, parseArgs } from './parse-args.js';
import { SQL_USAGE, sqlCommand } from './sql-command.js';

const VALUE_OPTIONS = new Set(['db', 'name', 'config', 'workers', 'width']);

export const USAGE = `repocod: build REPOCOD-style benchmarks from Python repositories

commands:
  extract <repo-path>   functions, complexity and lengths into the catalog
  sql "<query>"         run SQL on the catalog

${EXTRACT_USAGE}

${SQL_USAGE}
`;

/** Runs one command; returns the exit code (0 ok, 1 failed, 2 usage). Never throws. */
export async function main(argv: readonly string[], io: CommandIO): Promise<number> {
  try {
    const args = parseArgs(argv, VALUE_OPTIONS);
    switch (args.command) {
      case 'extract':
        assertKnownOptions(args, ['db', 'name', 'config', 'workers', 'jsonl']);
        return await extractCommand(args, io);
      case 'sql':
        assertKnownOptions(args, ['db', 'width']);
        return await sqlCommand(args, io);
      case 'help':
        io.out(USAGE);
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
