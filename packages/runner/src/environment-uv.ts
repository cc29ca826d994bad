import { execFile } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RepocodError } from '@repocod/core';
import { executablesOnPath } from './python-interpreter.js';

/** A uv binary that answered `uv --version`. */
export interface UvTool {
  readonly path: string;
  /** What `uv --version` printed, e.g. `uv 0.13.9`; recorded in the build log. */
  readonly version: string;
}

/** The uv scripts/setup.sh installs, in the project's tool venv (`.repocod/tools/py`) of this checkout. */
const SETUP_UV = fileURLToPath(new URL('../../../.repocod/tools/py/bin/uv', import.meta.url));

/**
 * Which uv to make environments with.
 * - `null`: none; venv + pip.
 * - a path: that uv, which must run (a RepocodError('tool-missing') otherwise: asked for, so not
 *   silently replaced by pip).
 * - `undefined`: `uv` on PATH, else `tools/py/bin/uv` beside the envs root (`.repocod/tools/py`, the
 *   project's own tool venv), else the one scripts/setup.sh installed in this checkout of repocod-kit
 *   (a worker with a state folder of its own, `--state DIR`, finds it there: without it the worker
 *   would make its environments with pip, under other keys than its coordinator's), else none.
 */
export async function findUv(
  option: string | null | undefined,
  envsRoot: string,
  pathEnv: string = process.env.PATH ?? '',
  setupUv: string = SETUP_UV,
): Promise<UvTool | null> {
  if (option === null) return null;
  if (option !== undefined) {
    const version = await uvVersion(option);
    if (version === null) {
      throw new RepocodError(
        'tool-missing',
        `uv at ${option} does not run (\`${option} --version\` failed); install it (\`pip install uv\`) or pass uv: ` +
          `null to make environments with venv and pip`,
      );
    }
    return { path: option, version };
  }
  const candidates = [
    ...executablesOnPath('uv', pathEnv),
    join(dirname(resolve(envsRoot)), 'tools', 'py', 'bin', 'uv'),
    setupUv,
  ];
  for (const candidate of candidates) {
    const version = await uvVersion(candidate);
    if (version !== null) return { path: candidate, version };
  }
  return null;
}

function uvVersion(uv: string): Promise<string | null> {
  return new Promise((resolvePromise) => {
    execFile(uv, ['--version'], { timeout: 20_000, encoding: 'utf8' }, (error, stdout) => {
      const version = stdout.trim();
      resolvePromise(error === null && version.startsWith('uv ') ? version : null);
    });
  });
}
