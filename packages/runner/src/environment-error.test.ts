import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isRepocodError } from '@repocod/core';
import { afterAll, describe, expect, it } from 'vitest';
import { EnvironmentError, readLogTail, type EnvironmentFailure } from './environment-error.js';

const scratch = mkdtempSync(join(tmpdir(), 'repocod-envlog-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const FAILURE: EnvironmentFailure = {
  repository: 'flask',
  command: 'python -m pip install -r requirements/tests.txt',
  exitCode: 1,
  signal: null,
  timedOutAfterSeconds: null,
  startError: null,
  logFile: '/envs/flask-0123456789abcdef.log',
  logTail: ['ERROR: No matching distribution found for nope==1.0'],
  fromRecipe: true,
};

describe('EnvironmentError', () => {
  it('is a RepocodError naming the repository, the command, its exit code, the log and its tail', () => {
    const error = new EnvironmentError(FAILURE);
    expect(isRepocodError(error)).toBe(true);
    expect(error.name).toBe('EnvironmentError');
    expect(error.exitCode).toBe(1);
    expect(error.message).toBe(
      'environment of "flask" could not be built: `python -m pip install -r requirements/tests.txt` exited with code ' +
        '1; ' +
        'fix the install command in the manifest (or what it reads from the checkout) and run again. ' +
        'Full log: /envs/flask-0123456789abcdef.log\nLast 20 lines of the log:\n  | ERROR: No matching distribution ' +
        'found for nope==1.0',
    );
  });

  it('says when the command timed out, was killed, or never started', () => {
    expect(new EnvironmentError({ ...FAILURE, exitCode: null, timedOutAfterSeconds: 1800 }).message).toContain(
      'was killed after 1800 s, the per-command timeout',
    );
    expect(new EnvironmentError({ ...FAILURE, exitCode: null, timedOutAfterSeconds: 1800 }).timedOut).toBe(true);
    expect(new EnvironmentError({ ...FAILURE, exitCode: null, signal: 'SIGKILL' }).message).toContain(
      'was killed by SIGKILL',
    );
    expect(new EnvironmentError({ ...FAILURE, exitCode: null, startError: 'spawn uv ENOENT' }).message).toContain(
      'could not be started (spawn uv ENOENT)',
    );
    expect(new EnvironmentError({ ...FAILURE, fromRecipe: false, logTail: [] }).message).toMatch(
      /the runner's own step failed.*\(the log is empty\)$/s,
    );
  });
});

describe('readLogTail', () => {
  it('returns the last lines of a large log, read from its end', () => {
    const file = join(scratch, 'big.log');
    const lines = Array.from({ length: 200_000 }, (_, index) => `line ${index} ${'x'.repeat(20)}`);
    writeFileSync(file, `${lines.join('\n')}\n`);
    expect(readLogTail(file)).toEqual(lines.slice(-20));
    expect(readLogTail(file, 3)).toEqual(lines.slice(-3));
  });

  it('returns nothing for a missing log', () => {
    expect(readLogTail(join(scratch, 'absent.log'))).toEqual([]);
  });
});
