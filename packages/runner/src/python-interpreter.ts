import { execFile } from 'node:child_process';
import { accessSync, constants, readdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import { RepocodError } from '@repocod/core';

/** A Python interpreter that was run and asked what it is. */
export interface PythonInterpreter {
  /**
   * The interpreter's own `sys.executable`, not the name it was found under: a pyenv shim picks its
   * version from the environment at each call, the executable behind it does not.
   */
  readonly path: string;
  /** `major.minor.micro`, e.g. `3.11.7`. */
  readonly version: string;
}

export interface FindPythonOptions {
  /** The PATH to search; `process.env.PATH` by default. */
  readonly pathEnv?: string;
  /** pyenv's root; `$PYENV_ROOT` or `~/.pyenv` by default. */
  readonly pyenvRoot?: string;
}

// Works unchanged under Python 2, so an old `python3` answers instead of failing with a syntax error.
const PROBE = "import sys; print(sys.executable); print('%d.%d.%d' % tuple(sys.version_info[:3]))";
const PROBE_TIMEOUT_MS = 20_000;

/**
 * True when `actual` (a full `3.11.7`) is the version the manifest asks for: `3.11` accepts any
 * 3.11.x, `3.11.9` only itself.
 */
export function pythonVersionMatches(wanted: string, actual: string): boolean {
  const wantedParts = wanted.split('.');
  const actualParts = actual.split('.');
  if (wantedParts.length > actualParts.length) return false;
  return wantedParts.every((part, index) => Number(part) === Number(actualParts[index]));
}

/**
 * Finds an interpreter of the manifest's Python version: `python3.11` on PATH, then pyenv's
 * installed versions (newest patch first), then `python3` if its version fits. Every candidate is
 * run, because a name on PATH proves nothing (a pyenv shim exits 127 for a version it does not
 * have selected). Throws RepocodError('tool-missing') naming what was tried and what to install.
 */
export async function findPythonInterpreter(
  version: string,
  options: FindPythonOptions = {},
): Promise<PythonInterpreter> {
  const pathEnv = options.pathEnv ?? process.env.PATH ?? '';
  const pyenvRoot = options.pyenvRoot ?? process.env.PYENV_ROOT ?? join(homedir(), '.pyenv');
  const minor = version.split('.').slice(0, 2).join('.');
  const tried: string[] = [];

  const candidates: Array<{ readonly label: string; readonly paths: readonly string[] }> = [
    { label: `python${minor} on PATH`, paths: executablesOnPath(`python${minor}`, pathEnv) },
    { label: `pyenv (${join(pyenvRoot, 'versions', `${version}*`)})`, paths: pyenvInterpreters(pyenvRoot, version) },
    { label: 'python3 on PATH', paths: executablesOnPath('python3', pathEnv) },
  ];
  for (const { label, paths } of candidates) {
    if (paths.length === 0) {
      tried.push(`${label}: none`);
      continue;
    }
    for (const path of paths) {
      const found = await probePython(path);
      if (found !== null && pythonVersionMatches(version, found.version)) return found;
      tried.push(`${path}: ${found === null ? 'does not run' : `is ${found.version}`}`);
    }
  }
  throw new RepocodError(
    'tool-missing',
    `no Python ${version} interpreter found (tried ${tried.join('; ')}); install Python ${version} ` +
      `(e.g. \`pyenv install ${version}\`, \`uv python install ${version}\` or your system's python${minor} package) ` +
      `so that python${minor} is on PATH or under ${join(pyenvRoot, 'versions')}`,
  );
}

/**
 * Runs `python` and returns what it is, or null when it does not run (missing, broken, a shim without that version).
 */
export function probePython(python: string): Promise<PythonInterpreter | null> {
  return new Promise((resolve) => {
    // -I: neither PYTHONPATH nor the user's site-packages may change what the probe sees.
    execFile(python, ['-I', '-c', PROBE], { timeout: PROBE_TIMEOUT_MS, encoding: 'utf8' }, (error, stdout) => {
      const [executable, version] = stdout.trim().split('\n');
      if (error !== null || executable === undefined || version === undefined || !/^\d+\.\d+\.\d+$/.test(version)) {
        resolve(null);
        return;
      }
      resolve({ path: executable.trim() === '' ? python : executable.trim(), version });
    });
  });
}

/** Every executable file called `name` in the PATH's folders, in PATH order (`which -a`). */
export function executablesOnPath(name: string, pathEnv: string): string[] {
  const found: string[] = [];
  for (const folder of pathEnv.split(delimiter)) {
    if (folder === '') continue;
    const candidate = join(folder, name);
    if (isExecutableFile(candidate) && !found.includes(candidate)) found.push(candidate);
  }
  return found;
}

/** pyenv's interpreters of `version` (`3.11` → every 3.11.x, newest first; `3.11.9` → just that one). */
function pyenvInterpreters(pyenvRoot: string, version: string): string[] {
  let names: string[];
  try {
    names = readdirSync(join(pyenvRoot, 'versions'));
  } catch {
    return [];
  }
  // Only plain CPython release folders: `3.11-dev`, `3.13.0t` and virtualenv names are something else.
  const releases = names.filter((name) => /^\d+\.\d+\.\d+$/.test(name) && pythonVersionMatches(version, name));
  releases.sort((a, b) => compareVersions(b, a));
  return releases.map((name) => join(pyenvRoot, 'versions', name, 'bin', 'python')).filter(isExecutableFile);
}

function compareVersions(a: string, b: string): number {
  const left = a.split('.').map(Number);
  const right = b.split('.').map(Number);
  for (let index = 0; index < Math.max(left.length, right.length); index += 1) {
    const difference = (left[index] ?? 0) - (right[index] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
}

function isExecutableFile(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
