import { RepocodError } from '@repocod/core';

export interface ParsedArgs {
  readonly command: string | undefined;
  readonly positionals: readonly string[];
  readonly flags: ReadonlyMap<string, string | true>;
  /** Every value of an option given more than once (`--patch a.diff --patch b.diff`), in order. */
  readonly repeated: ReadonlyMap<string, readonly string[]>;
}

/**
 * `repocod <command> [positionals] [--flag] [--option value]`. Options that take a value are named
 * up front so that `--db x.duckdb` is never read as a flag followed by a positional.
 */
export function parseArgs(argv: readonly string[], valueOptions: ReadonlySet<string>): ParsedArgs {
  const positionals: string[] = [];
  const flags = new Map<string, string | true>();
  const repeated = new Map<string, string[]>();
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index] ?? '';
    if (!arg.startsWith('--') || arg === '--') {
      positionals.push(arg);
      continue;
    }
    const [name = '', inline] = arg.slice(2).split(/=(.*)/s, 2);
    if (valueOptions.has(name)) {
      const value = inline ?? argv[++index];
      if (value === undefined) throw new RepocodError('usage', `option --${name} needs a value`);
      flags.set(name, value);
      repeated.set(name, [...(repeated.get(name) ?? []), value]);
    } else {
      if (inline !== undefined) throw new RepocodError('usage', `option --${name} takes no value`);
      flags.set(name, true);
    }
  }
  const [command, ...rest] = positionals;
  return { command, positionals: rest, flags, repeated };
}

export function stringOption(args: ParsedArgs, name: string): string | undefined {
  const value = args.flags.get(name);
  return typeof value === 'string' ? value : undefined;
}

/** Refuses options the command does not know: a typo such as `--jsnl` must not run silently as if absent. */
export function assertKnownOptions(args: ParsedArgs, known: readonly string[]): void {
  for (const name of args.flags.keys()) {
    if (!known.includes(name)) {
      throw new RepocodError(
        'usage',
        `unknown option --${name} for "${args.command ?? ''}" (known: ${known
          .map((option) => `--${option}`)
          .join(', ')})`,
      );
    }
  }
}

export function listOption(args: ParsedArgs, name: string): readonly string[] {
  return args.repeated.get(name) ?? [];
}

/** A numeric option that must be a whole number of at least 1; `fallback` when it is absent. */
export function wholeNumber(args: ParsedArgs, name: string, fallback: number): number {
  return optionalWholeNumber(args, name) ?? fallback;
}

/** A whole number >= 1, or undefined when the option is not given (its default is resolved elsewhere). */
export function optionalWholeNumber(args: ParsedArgs, name: string): number | undefined {
  const text = stringOption(args, name);
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1)
    throw new RepocodError('usage', `--${name} must be a whole number >= 1 (got ${text})`);
  return value;
}
