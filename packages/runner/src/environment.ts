import { closeSync, existsSync, mkdirSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
import { RepocodError } from '@repocod/core';
import { runLoggedCommand, succeeded, type LoggedCommand } from './environment-command.js';
import { ENVIRONMENT_ERROR_CODE, EnvironmentError, readLogTail } from './environment-error.js';
import { environmentDirectoryName, environmentKey, HARNESS_PACKAGES, SEED_PACKAGES } from './environment-key.js';
import { readEnvironmentMarker, writeEnvironmentMarker, type EnvironmentMarker, type Installer } from './environment-marker.js';
import { listInstalledPackages, packagesHash } from './environment-packages.js';
import { findUv, type UvTool } from './environment-uv.js';
import type { ManifestEntry } from './manifest.js';
import { recipeHash } from './manifest-recipe-hash.js';
import { findPythonInterpreter, probePython } from './python-interpreter.js';

/** A built, ready environment of one repository. */
export interface Environment {
  /** The manifest's name for the repository. */
  readonly name: string;
  /** The venv folder, `<envsRoot>/<name>-<key16>`. */
  readonly path: string;
  /** The venv's python. */
  readonly python: string;
  /** Full version of that python, e.g. `3.11.7`. */
  readonly pythonVersion: string;
  readonly recipeHash: string;
  /** sha256 of recipe hash, base commit and the runner's pins (see environmentKey). */
  readonly key: string;
  /** `<path>.log`: beside the venv, so it outlives the rebuild that deletes the venv. Appended to by every build. */
  readonly logFile: string;
  /** What made the venv (for a reused one: what made it back then). */
  readonly installer: Installer;
  /** false when an existing environment was reused. */
  readonly created: boolean;
  /** sha256 of the sorted `name==version` list of installed packages, for provenance. */
  readonly packagesHash: string;
}

export interface EnsureEnvironmentOptions {
  /** Where environments live, normally `.repocod/envs`. */
  readonly envsRoot: string;
  /** The commit the checkout is at; defaults to the manifest's base commit. Part of the key. */
  readonly baseCommit?: string;
  /** Rebuild even when a finished environment with the same key exists. */
  readonly fresh?: boolean;
  /** Every line the build writes to its log, as it comes. */
  readonly onLog?: (line: string) => void;
  /** uv to use: a path, null for venv + pip, undefined to look for one (see findUv). */
  readonly uv?: string | null;
  /** Seconds one command of the build may take before its process group is killed (30 minutes). */
  readonly commandTimeoutSeconds?: number;
}

export const DEFAULT_COMMAND_TIMEOUT_SECONDS = 30 * 60;

// Builds of the same folder are serialized within this process: the second caller waits and then
// finds the first one's marker. (Two processes building the same environment at once are not
// guarded against; the pipeline builds each environment once, before it starts its workers.)
const inFlight = new Map<string, Promise<unknown>>();

/**
 * Returns the environment of `entry` for a checkout at `checkoutPath`, building it when no finished
 * one with the same key exists. A build makes a venv with the manifest's Python, installs the pinned
 * seed packages (pip, setuptools), runs the recipe's install commands at the checkout, installs the
 * runner's harness packages, and writes the marker last. Any failing step throws an EnvironmentError
 * that quotes the end of the build log.
 */
export async function ensureEnvironment(entry: ManifestEntry, checkoutPath: string, options: EnsureEnvironmentOptions): Promise<Environment> {
  const recipe = recipeHash(entry);
  const baseCommit = options.baseCommit ?? entry.baseCommit ?? null;
  const key = environmentKey(recipe, baseCommit);
  const envsRoot = resolve(options.envsRoot);
  const path = join(envsRoot, environmentDirectoryName(entry.name, key));

  const previous = inFlight.get(path) ?? Promise.resolve();
  const current = previous
    .catch(() => undefined)
    .then(async () => {
      if (options.fresh !== true) {
        const reused = await reuseEnvironment(path, key, options.onLog);
        if (reused !== null) return reused;
      }
      return buildEnvironment({ entry, checkoutPath: resolve(checkoutPath), path, key, recipeHash: recipe, baseCommit, envsRoot, options });
    });
  inFlight.set(path, current);
  try {
    return await current;
  } finally {
    if (inFlight.get(path) === current) inFlight.delete(path);
  }
}

function venvPython(path: string): string {
  return join(path, 'bin', 'python');
}

/**
 * The finished environment at `path`, or null when it must be (re)built: no marker (never built, or
 * a build that did not finish), a marker of another key, or a python that no longer runs (the
 * interpreter the venv links to was removed or upgraded in place).
 */
async function reuseEnvironment(path: string, key: string, onLog: ((line: string) => void) | undefined): Promise<Environment | null> {
  if (!existsSync(path)) return null;
  const marker = readEnvironmentMarker(path);
  if (marker === null || marker.key !== key) {
    onLog?.(`# ${path} has no finished build (no marker of this key); rebuilding it`);
    return null;
  }
  const probed = await probePython(venvPython(path));
  if (probed === null || probed.version !== marker.pythonVersion) {
    onLog?.(`# ${venvPython(path)} ${probed === null ? 'no longer runs' : `is now ${probed.version}, not ${marker.pythonVersion}`}; rebuilding`);
    return null;
  }
  return environmentOf(path, marker, false);
}

function environmentOf(path: string, marker: EnvironmentMarker, created: boolean): Environment {
  return {
    name: marker.name,
    path,
    python: venvPython(path),
    pythonVersion: marker.pythonVersion,
    recipeHash: marker.recipeHash,
    key: marker.key,
    logFile: `${path}.log`,
    installer: marker.installer,
    created,
    packagesHash: marker.packagesHash,
  };
}

interface BuildRequest {
  readonly entry: ManifestEntry;
  readonly checkoutPath: string;
  readonly path: string;
  readonly key: string;
  readonly recipeHash: string;
  readonly baseCommit: string | null;
  readonly envsRoot: string;
  readonly options: EnsureEnvironmentOptions;
}

async function buildEnvironment(request: BuildRequest): Promise<Environment> {
  const { entry, checkoutPath, path, key, options } = request;
  requireDirectory(checkoutPath, entry.name);
  const interpreter = await findPythonInterpreter(entry.python);
  const uv = await findUv(options.uv, request.envsRoot);
  const installer: Installer = uv === null ? 'pip' : 'uv';
  const python = venvPython(path);
  const logFile = `${path}.log`;
  const timeoutSeconds = options.commandTimeoutSeconds ?? DEFAULT_COMMAND_TIMEOUT_SECONDS;
  const started = performance.now();

  mkdirSync(request.envsRoot, { recursive: true });
  // Whatever is there has no valid marker (or a rebuild was asked for): start from nothing, since a
  // half-installed site-packages is not something pip can be trusted to repair.
  rmSync(path, { recursive: true, force: true });
  const logFd = openSync(logFile, 'a');
  try {
    const header = [
      `# ${new Date().toISOString()} building the environment of ${entry.name}`,
      `# path ${path}`,
      `# key ${key} (recipe ${request.recipeHash}, base commit ${request.baseCommit ?? 'none'})`,
      `# python ${interpreter.path} (${interpreter.version}); installer ${uv === null ? 'venv + pip' : `${uv.version} at ${uv.path}`}`,
    ];
    writeSync(logFd, `\n${header.join('\n')}\n`);
    for (const line of header) options.onLog?.(line);

    const env = buildEnv(entry, path);
    const run = async (command: LoggedCommand, fromRecipe: boolean): Promise<void> => {
      const result = await runLoggedCommand(command, { cwd: checkoutPath, env, logFd, timeoutMs: timeoutSeconds * 1000, onLog: options.onLog });
      if (succeeded(result)) return;
      throw new EnvironmentError({
        repository: entry.name,
        command: command.display,
        exitCode: result.exitCode,
        signal: result.signal,
        timedOutAfterSeconds: result.timedOut ? timeoutSeconds : null,
        startError: result.startError,
        logFile,
        logTail: readLogTail(logFile),
        fromRecipe,
      });
    };

    await run(createVenvCommand(uv, interpreter.path, path), false);
    await run(installCommand(uv, python, SEED_PACKAGES), false);
    for (const command of entry.install) await run(recipeCommand(command), true);
    await run(installCommand(uv, python, HARNESS_PACKAGES), false);

    const probed = await probePython(python);
    if (probed === null) {
      throw new RepocodError(ENVIRONMENT_ERROR_CODE, `${python} does not run after the build of ${entry.name}; see ${logFile} and rebuild with fresh: true`);
    }
    const packages = await listInstalledPackages(python, env).catch((error: unknown) => {
      throw new RepocodError(ENVIRONMENT_ERROR_CODE, `environment of ${entry.name} at ${path}: ${error instanceof Error ? error.message : String(error)}; see ${logFile} and rebuild with fresh: true`, {
        cause: error,
      });
    });
    const marker: EnvironmentMarker = {
      format: 'repocod-env-marker/1',
      name: entry.name,
      key,
      recipeHash: request.recipeHash,
      baseCommit: request.baseCommit,
      installer,
      interpreter: interpreter.path,
      pythonVersion: probed.version,
      seedPackages: SEED_PACKAGES,
      harnessPackages: HARNESS_PACKAGES,
      packages,
      packagesHash: packagesHash(packages),
      builtAt: new Date().toISOString(),
      buildSeconds: Math.round((performance.now() - started) / 100) / 10,
    };
    writeEnvironmentMarker(path, marker);
    const done = `# built ${entry.name} in ${marker.buildSeconds} s: ${packages.length} packages, packages hash ${marker.packagesHash}`;
    writeSync(logFd, `${done}\n`);
    options.onLog?.(done);
    return environmentOf(path, marker, true);
  } finally {
    closeSync(logFd);
  }
}

function requireDirectory(checkoutPath: string, name: string): void {
  let isDirectory: boolean;
  try {
    isDirectory = statSync(checkoutPath).isDirectory();
  } catch (error) {
    throw new RepocodError('path-not-found', `checkout of ${name} not found at ${checkoutPath}; check it out before building its environment`, { cause: error });
  }
  if (!isDirectory) throw new RepocodError('not-a-directory', `checkout of ${name} at ${checkoutPath} is not a folder`);
}

/**
 * The variables every build command sees: this process's, minus what would let another Python
 * installation leak in, plus the manifest's `env`, plus what the runner owns (the schema refuses
 * those names in `env`, and they are applied last anyway). The deterministic settings of test runs
 * apply to builds too, so code generated at install time sees the same locale, zone and hash seed.
 */
function buildEnv(entry: ManifestEntry, path: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of ['PYTHONPATH', 'PYTHONHOME', 'PYTHONSTARTUP', 'PYTHONUSERBASE', '__PYVENV_LAUNCHER__', 'CONDA_PREFIX', 'UV_PYTHON']) {
    delete env[name];
  }
  return {
    ...env,
    ...entry.env,
    PATH: `${join(path, 'bin')}${delimiter}${process.env.PATH ?? ''}`,
    VIRTUAL_ENV: path,
    PIP_DISABLE_PIP_VERSION_CHECK: '1',
    PIP_NO_INPUT: '1',
    PYTHONNOUSERSITE: '1',
    UV_PYTHON_DOWNLOADS: 'never',
    UV_NO_PROGRESS: '1',
    TZ: 'UTC',
    LC_ALL: 'C.UTF-8',
    PYTHONHASHSEED: '0',
  };
}

// --no-config: a checkout's pyproject.toml or uv.toml must not redirect the runner's own steps to
// another index or interpreter; the recipe, which runs pip, is where a repository gets its say.
function createVenvCommand(uv: UvTool | null, interpreter: string, path: string): LoggedCommand {
  if (uv === null) {
    return { display: `${interpreter} -m venv ${path}`, file: interpreter, args: ['-m', 'venv', path] };
  }
  const args = ['venv', '--no-config', '--no-python-downloads', '--python', interpreter, path];
  return { display: `${uv.path} ${args.join(' ')}`, file: uv.path, args };
}

function installCommand(uv: UvTool | null, python: string, packages: readonly string[]): LoggedCommand {
  if (uv === null) {
    const args = ['-m', 'pip', 'install', ...packages];
    return { display: `${python} ${args.join(' ')}`, file: python, args };
  }
  // --system-certs: uv trusts its own bundled roots by default, and a machine behind a TLS proxy or a
  // company CA only has that CA in the system store (pip uses it; uv refuses the index without it).
  const args = ['pip', 'install', '--no-config', '--system-certs', '--python', python, ...packages];
  return { display: `${uv.path} ${args.join(' ')}`, file: uv.path, args };
}

// The manifest's commands are shell text by design (`cd sub && SKIP_NPM=1 python -m pip ...`) and
// the only shell text run: bash when there is one, sh otherwise. -e so that a failing line of a
// multi-line command fails the build instead of being hidden by the next line's success.
const SHELL = existsSync('/bin/bash') ? '/bin/bash' : '/bin/sh';

function recipeCommand(command: string): LoggedCommand {
  return { display: command, file: SHELL, args: ['-e', '-c', command] };
}
