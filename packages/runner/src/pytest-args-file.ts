import { execFile } from 'node:child_process';

/** The first pytest that reads arguments from an `@file` (pytest 8.2, May 2024). */
const ARGS_FILE_SINCE: readonly [number, number] = [8, 2];

/** Whether a pytest version (`8.3.3`, `7.4.4`, `8.2.0.dev12`) reads `@file` arguments. */
export function readsArgsFile(version: string): boolean {
  const [major = Number.NaN, minor = Number.NaN] = version.split('.').map((part) => Number.parseInt(part, 10));
  if (Number.isNaN(major) || Number.isNaN(minor)) return true;
  return major > ARGS_FILE_SINCE[0] || (major === ARGS_FILE_SINCE[0] && minor >= ARGS_FILE_SINCE[1]);
}

const known = new Map<string, Promise<boolean>>();

/**
 * Whether the pytest of an environment's python reads `@file` arguments, asked once per python.
 * Older ones (plotly.py's tests pin pytest 7.4.4) take the node ids, deselections and paths on the
 * command line instead, where pytest 7 would look for a test file named `@/tmp/…/args.txt`. When
 * the version cannot be read, the file is used: the run then says what went wrong.
 */
export function pytestReadsArgsFile(python: string): Promise<boolean> {
  const cached = known.get(python);
  if (cached !== undefined) return cached;
  const asked = new Promise<boolean>((resolve) => {
    execFile(
      python,
      ['-c', 'import pytest; print(pytest.__version__)'],
      { timeout: 60_000, encoding: 'utf8' },
      (error, stdout) => {
        resolve(error === null ? readsArgsFile(stdout.trim()) : true);
      },
    );
  });
  known.set(python, asked);
  return asked;
}
