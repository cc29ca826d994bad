import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isRepocodError } from '@repocod/core';
import { afterAll, describe, expect, it } from 'vitest';
import { executablesOnPath, findPythonInterpreter, probePython, pythonVersionMatches } from './python-interpreter.js';

const scratch = mkdtempSync(join(tmpdir(), 'repocod-python-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function script(folder: string, name: string, body: string): string {
  mkdirSync(folder, { recursive: true });
  const file = join(folder, name);
  writeFileSync(file, `#!/bin/sh\n${body}\n`);
  chmodSync(file, 0o755);
  return file;
}

describe('pythonVersionMatches', () => {
  it('takes a minor version as any of its patches and a full version as itself', () => {
    expect(pythonVersionMatches('3.11', '3.11.7')).toBe(true);
    expect(pythonVersionMatches('3.11', '3.1.11')).toBe(false);
    expect(pythonVersionMatches('3.11', '3.12.1')).toBe(false);
    expect(pythonVersionMatches('3.1', '3.11.7')).toBe(false);
    expect(pythonVersionMatches('3.11.7', '3.11.7')).toBe(true);
    expect(pythonVersionMatches('3.11.9', '3.11.7')).toBe(false);
    expect(pythonVersionMatches('3.11.7.1', '3.11.7')).toBe(false);
  });
});

describe('findPythonInterpreter', () => {
  it("finds this machine's 3.11 as a real executable, not a shim", async () => {
    const found = await findPythonInterpreter('3.11');
    expect(found.version).toMatch(/^3\.11\.\d+$/);
    expect(found.path).not.toContain('/shims/');
    expect((await probePython(found.path))?.version).toBe(found.version);
  });

  it('skips a python3.11 on PATH that does not run (a shim without that version) and falls back to pyenv', async () => {
    const fakeBin = join(scratch, 'fake-bin');
    script(fakeBin, 'python3.11', 'echo "pyenv: python3.11: command not found" >&2; exit 127');
    const real = await findPythonInterpreter('3.11');
    // A pyenv root holding only that real interpreter, under a release-named folder.
    const pyenvRoot = join(scratch, 'pyenv');
    mkdirSync(join(pyenvRoot, 'versions', real.version, 'bin'), { recursive: true });
    symlinkSync(real.path, join(pyenvRoot, 'versions', real.version, 'bin', 'python'));
    mkdirSync(join(pyenvRoot, 'versions', '3.11-dev', 'bin'), { recursive: true });

    const found = await findPythonInterpreter('3.11', { pathEnv: fakeBin, pyenvRoot });
    expect(found.version).toBe(real.version);
  });

  it('takes python3 only when its version matches', async () => {
    const fakeBin = join(scratch, 'only-python3');
    script(fakeBin, 'python3', 'echo /opt/python/bin/python3.12; echo 3.12.4');
    const noPyenv = join(scratch, 'no-pyenv');
    const error: unknown = await findPythonInterpreter('3.11', { pathEnv: fakeBin, pyenvRoot: noPyenv }).catch(
      (caught: unknown) => caught,
    );
    expect(isRepocodError(error) && error.code).toBe('tool-missing');
    expect(String(error)).toContain(`${join(fakeBin, 'python3')}: is 3.12.4`);

    const found = await findPythonInterpreter('3.12', { pathEnv: fakeBin, pyenvRoot: noPyenv });
    expect(found).toEqual({ path: '/opt/python/bin/python3.12', version: '3.12.4' });
  });

  it('names the version, what was tried and how to install it when none fits', async () => {
    const error: unknown = await findPythonInterpreter('2.6').catch((caught: unknown) => caught);
    expect(isRepocodError(error) && error.code).toBe('tool-missing');
    const message = String(error);
    expect(message).toContain('no Python 2.6 interpreter found');
    expect(message).toContain('python2.6 on PATH: none');
    expect(message).toMatch(/python3: is 3\.\d+\.\d+/);
    expect(message).toContain('pyenv install 2.6');
  });
});

describe('executablesOnPath', () => {
  it('lists every executable of that name in PATH order, like which -a', () => {
    const first = join(scratch, 'a');
    const second = join(scratch, 'b');
    script(first, 'tool', 'true');
    script(second, 'tool', 'true');
    mkdirSync(join(scratch, 'c'), { recursive: true });
    writeFileSync(join(scratch, 'c', 'tool'), 'not executable');
    const pathEnv = [first, join(scratch, 'c'), second, first].join(':');
    expect(executablesOnPath('tool', pathEnv)).toEqual([join(first, 'tool'), join(second, 'tool')]);
    expect(executablesOnPath('absent', pathEnv)).toEqual([]);
  });
});
