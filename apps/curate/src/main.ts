import { isRepocodError } from '@repocod/core';
import type { CommandSpec } from './command-table.js';
import { COMMANDS, commandHelp, commandOptions, overviewUsage } from './command-table.js';
import type { CommandIO } from './io.js';
import { assertKnownOptions, parseArgs } from './parse-args.js';

export const USAGE = overviewUsage(COMMANDS);

const COMMAND_BY_NAME: ReadonlyMap<string, CommandSpec> = new Map(COMMANDS.map((command) => [command.name, command]));

/** Options that take a value in any command: enough to find the command wherever the options stand. */
const ANY_VALUE_OPTIONS = valueOptions(COMMANDS);

function valueOptions(commands: readonly CommandSpec[]): ReadonlySet<string> {
  return new Set(
    commands.flatMap((command) =>
      [...commandOptions(command)].flatMap(([name, kind]) => (kind === 'value' ? [name] : [])),
    ),
  );
}

/**
 * docs/cli.md: the commands and each command's usage, exactly as `--help` prints them, so that the
 * reference never drifts from the tool (`pnpm repocod help --markdown > docs/cli.md`; a test compares).
 */
export function cliReference(): string {
  const overview = USAGE.slice(0, USAGE.indexOf('\n\n', USAGE.indexOf('commands:'))).trimEnd();
  const sections = COMMANDS.map(
    (command) => `## repocod ${command.name}\n\n\`\`\`text\n${commandHelp(command).trimEnd()}\n\`\`\`\n`,
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
    ...sections,
  ]
    .join('\n')
    .replace(/\n+$/, '\n');
}

/** Runs one command; returns the exit code (0 ok, 1 failed, 2 usage). Never throws. */
export async function main(argv: readonly string[], io: CommandIO): Promise<number> {
  try {
    if (argv.includes('--help') || argv.includes('-h')) {
      const named = COMMAND_BY_NAME.get(argv.find((arg) => !arg.startsWith('-')) ?? '');
      io.out(named === undefined ? USAGE : `${commandHelp(named)}\n`);
      return 0;
    }
    // `help --markdown` is a flag of help's own, where `report --markdown FILE` takes a value.
    const located = parseArgs(argv, argv[0] === 'help' ? new Set() : ANY_VALUE_OPTIONS);
    const command = located.command === undefined ? undefined : COMMAND_BY_NAME.get(located.command);
    if (located.command === 'help') {
      assertKnownOptions(located, ['markdown']);
      io.out(located.flags.get('markdown') === true ? cliReference() : USAGE);
      return 0;
    }
    if (command === undefined) {
      io.err(located.command === undefined ? USAGE : `error: unknown command "${located.command}"\n\n${USAGE}`);
      return 2;
    }
    // Parsed again with the command's own options: what its synopsis declares, and nothing else.
    const options = commandOptions(command);
    const args = parseArgs(argv, valueOptions([command]));
    assertKnownOptions(args, [...options.keys()]);
    return await command.run(args, io);
  } catch (error) {
    if (isRepocodError(error)) {
      io.err(`error: ${error.message}\n`);
      return error.code === 'usage' ? 2 : 1;
    }
    io.err(`internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    return 1;
  }
}
