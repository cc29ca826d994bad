import { isRepocodError } from '@repocod/core';
import { describe, expect, it } from 'vitest';
import { parseArgs, stringOption } from './parse-args.js';

const VALUES = new Set(['db', 'name', 'width']);

function usageError(argv: readonly string[]): string {
  try {
    parseArgs(argv, VALUES);
  } catch (error) {
    if (isRepocodError(error) && error.code === 'usage') return error.message;
    throw error;
  }
  throw new Error(`${argv.join(' ')} parsed, but a usage error was expected`);
}

describe('parseArgs', () => {
  it('splits the command, the positionals and the options', () => {
    const args = parseArgs(['extract', 'repo', '--db', 'x.duckdb', '--jsonl', 'more'], VALUES);
    expect(args.command).toBe('extract');
    expect(args.positionals).toEqual(['repo', 'more']);
    expect([...args.flags]).toEqual([
      ['db', 'x.duckdb'],
      ['jsonl', true],
    ]);
    expect(stringOption(args, 'db')).toBe('x.duckdb');
    // A flag is no string option, and an absent option is undefined.
    expect(stringOption(args, 'jsonl')).toBeUndefined();
    expect(stringOption(args, 'name')).toBeUndefined();
  });

  it('takes the next argument as the value even when it starts with --', () => {
    const args = parseArgs(['sql', '--name', '--odd', 'select 1'], VALUES);
    expect(stringOption(args, 'name')).toBe('--odd');
    expect(args.positionals).toEqual(['select 1']);
  });

  it('reads --x=y, keeping any further = in the value, and an empty value', () => {
    const args = parseArgs(['sql', 'select 1', '--db=a=b.duckdb', '--name='], VALUES);
    expect(stringOption(args, 'db')).toBe('a=b.duckdb');
    expect(stringOption(args, 'name')).toBe('');
  });

  it('lets a later option win', () => {
    expect(stringOption(parseArgs(['x', '--db', 'a', '--db=b'], VALUES), 'db')).toBe('b');
  });

  it('keeps "--" and single-dash arguments as positionals', () => {
    const args = parseArgs(['sql', '--', '-1'], VALUES);
    expect(args.positionals).toEqual(['--', '-1']);
    expect(args.flags.size).toBe(0);
  });

  it('gives no command for no arguments', () => {
    expect(parseArgs([], VALUES)).toEqual({
      command: undefined,
      positionals: [],
      flags: new Map(),
      repeated: new Map(),
    });
  });

  it('refuses a value option with no value, naming it', () => {
    expect(usageError(['extract', 'repo', '--db'])).toBe('option --db needs a value');
  });

  it('refuses a flag given a value, naming it', () => {
    expect(usageError(['extract', 'repo', '--jsonl=true'])).toBe('option --jsonl takes no value');
  });

  it('keeps every value of an option given more than once, in order', () => {
    const args = parseArgs(['run', 'demo', '--db', 'x.duckdb', '--db=y.duckdb'], VALUES);
    expect(args.flags.get('db')).toBe('y.duckdb');
    expect(args.repeated.get('db')).toEqual(['x.duckdb', 'y.duckdb']);
  });
});
