import { execFileSync } from 'node:child_process';
import { RepocodError } from '@repocod/core';

/** The interpreter the differential tests compare against: $PYTHON, else python3 on PATH. */
export function pythonExecutable(): string {
  return process.env.PYTHON ?? 'python3';
}

/** The folder of the Python standard library of that interpreter (the differential tests' corpus). */
export function pythonStdlibPath(python = pythonExecutable()): string {
  try {
    return execFileSync(python, ['-c', "import sysconfig; print(sysconfig.get_paths()['stdlib'])"], {
      encoding: 'utf8',
    }).trim();
  } catch (error) {
    throw new RepocodError('tool-missing', `cannot run ${python} to find the standard library: ${String(error)}`);
  }
}
