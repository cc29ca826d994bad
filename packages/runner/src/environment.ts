import { execFile } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
import { RepocodError } from '@repocod/core';
import { runLoggedCommand, succeeded, type LoggedCommand } from './environment-command.js';
import { ENVIRONMENT_ERROR_CODE, EnvironmentError, readLogTail } from './environment-error.js';
import { environmentDirectoryName, environmentKey, HARNESS_PACKAGES, SEED_PACKAGES } from './environment-key.js';
import {
  readEnvironmentMarker,
  writeEnvironmentMarker,
  type EnvironmentMarker,
  type Installer,
} from './environment-marker.js';
import { listInstalledPackages, packagesHash } from './environment-packages.js';
import { findUv, type UvTool } from './environment-uv.js';
import { commitTime } from './git.js';
import { isResolvedInstall } from './install-step.js';
import type { ManifestEntry } from './manifest.js';
import { recipeHash } from './manifest-recipe-hash.js';
import { projectExtras, projectNameOf } from './project-extras.js';
import { findPythonInterpreter, probePython } from './python-interpreter.js';
import { isTheProject, missingExtras, RecipeExtraMissingError } from './recipe-extra-check.js';
import { checkTestImports, TestDependencyMissingError } from './test-suite-imports.js';
import { resolutionDate } from './resolution-date.js';

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
  /** `name==version` of every installed distribution, sorted: the resolved set, for provenance. */
  readonly packages: readonly string[];
  /** The UTC timestamp versions were resolved as of (uv's --exclude-newer); null when undated. */
  readonly resolvedAsOf: string | null;
  /** `<path>.freeze.txt`: the installer's own `pip freeze` of the venv, written after the build. */
  readonly freezeFile: string;
}

export interface EnsureEnvironmentOptions {
  /** Where environments live, normally `.repocod/envs`. */
  readonly envsRoot: string;
  /** The commit the checkout is at; defaults to the manifest's base commit. Part of the key. */
  readonly baseCommit?: string;
  /**
   * That commit's committer timestamp (ISO 8601), the default resolution date of a manifest that pins
   * its base commit; read from the checkout when not given.
   */
  readonly commitTimestamp?: string;
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
export async function ensureEnvironment(
  entry: ManifestEntry,
  checkoutPath: string,
  options: EnsureEnvironmentOptions,
): Promise<Environment> {
  const recipe = recipeHash(entry);
  const baseCommit = options.baseCommit ?? entry.baseCommit ?? null;
  const envsRoot = resolve(options.envsRoot);
  const uv = await findUv(options.uv, envsRoot);
  const wanted = await wantedResolutionDate(entry, checkoutPath, baseCommit, options.commitTimestamp);
  // pip is given no date: its --uploaded-prior-to silently admits files from indexes that publish no
  // upload times (find-links folders, local mirrors), so a "dated" pip build could not be trusted.
  const resolvedAsOf = uv === null ? null : wanted;
  const key = environmentKey(recipe, baseCommit, resolvedAsOf);
  const path = join(envsRoot, environmentDirectoryName(entry.name, key));

  const previous = inFlight.get(path) ?? Promise.resolve();
  const current = previous
    .catch(() => undefined)
    .then(async () => {
      if (options.fresh !== true) {
        const reused = await reuseEnvironment(path, key, options.onLog);
        if (reused !== null) return reused;
      }
      return buildEnvironment({
        entry,
        checkoutPath: resolve(checkoutPath),
        path,
        key,
        recipeHash: recipe,
        baseCommit,
        envsRoot,
        uv,
        wanted,
        resolvedAsOf,
        options,
      });
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
async function reuseEnvironment(
  path: string,
  key: string,
  onLog: ((line: string) => void) | undefined,
): Promise<Environment | null> {
  if (!existsSync(path)) return null;
  const marker = readEnvironmentMarker(path);
  if (marker === null || marker.key !== key) {
    onLog?.(`# ${path} has no finished build (no marker of this key); rebuilding it`);
    return null;
  }
  const probed = await probePython(venvPython(path));
  if (probed === null || probed.version !== marker.pythonVersion) {
    onLog?.(
      `# ${venvPython(path)} ${
        probed === null ? 'no longer runs' : `is now ${probed.version}, not ${marker.pythonVersion}`
      }; rebuilding`,
    );
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
    packages: marker.packages,
    resolvedAsOf: marker.resolvedAsOf ?? null,
    freezeFile: `${path}.freeze.txt`,
  };
}

/** The date the recipe asks versions to be resolved as of (see resolutionDate), before the installer is known. */
async function wantedResolutionDate(
  entry: ManifestEntry,
  checkoutPath: string,
  baseCommit: string | null,
  commitTimestamp: string | undefined,
): Promise<string | null> {
  const pinned = entry.baseCommit ?? null;
  if (entry.excludeNewer !== undefined || pinned === null || baseCommit === null)
    return resolutionDate(entry.excludeNewer, pinned, commitTimestamp ?? '');
  const timestamp = commitTimestamp ?? (await commitTime(checkoutPath, baseCommit));
  return resolutionDate(undefined, pinned, timestamp);
}

interface BuildRequest {
  readonly entry: ManifestEntry;
  readonly checkoutPath: string;
  readonly path: string;
  readonly key: string;
  readonly recipeHash: string;
  readonly baseCommit: string | null;
  readonly envsRoot: string;
  readonly uv: UvTool | null;
  /** The date the recipe asks for, and the one applied (null with pip). */
  readonly wanted: string | null;
  readonly resolvedAsOf: string | null;
  readonly options: EnsureEnvironmentOptions;
}

async function buildEnvironment(request: BuildRequest): Promise<Environment> {
  const { entry, checkoutPath, path, key, options, uv, resolvedAsOf } = request;
  requireDirectory(checkoutPath, entry.name);
  const interpreter = await findPythonInterpreter(entry.python);
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
      `# python ${interpreter.path} (${interpreter.version}); installer ${
        uv === null ? 'venv + pip' : `${uv.version} at ${uv.path}`
      }`,
      `# ${resolutionNote(request.wanted, resolvedAsOf)}`,
    ];
    writeSync(logFd, `\n${header.join('\n')}\n`);
    for (const line of header) options.onLog?.(line);

    const env = buildEnv(entry, path);
    // A `uv pip` inside a shell step keeps the build's date; an undated build clears one set outside.
    // The runner's own pinned steps stay undated: pip 24.2 is newer than some base commits.
    const shellEnv = { ...env, UV_EXCLUDE_NEWER: resolvedAsOf ?? undefined };
    const projectDir = join(checkoutPath, entry.packageRoot);
    const run = async (command: LoggedCommand, fromRecipe: boolean, commandEnv = env): Promise<void> => {
      const lines: string[] = [];
      const result = await runLoggedCommand(command, {
        cwd: checkoutPath,
        env: commandEnv,
        logFd,
        timeoutMs: timeoutSeconds * 1000,
        onLog: (line) => {
          lines.push(line);
          options.onLog?.(line);
        },
      });
      if (succeeded(result)) {
        if (fromRecipe) refuseMissingExtras(entry, command, lines, checkoutPath, projectDir, logFile);
        return;
      }
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
        installerSaid: lines.find((line) => INSTALLER_ERROR.test(line.trim()))?.trim() ?? null,
      });
    };

    await run(createVenvCommand(uv, interpreter.path, path), false);
    await run(installCommand(uv, python, SEED_PACKAGES), false);
    for (const step of entry.install) {
      if (isResolvedInstall(step)) await run(installCommand(uv, python, step.pip, resolvedAsOf), true);
      else await run(recipeCommand(step), true, shellEnv);
    }
    await run(installCommand(uv, python, HARNESS_PACKAGES), false);
    await writeFreeze(uv, python, env, `${path}.freeze.txt`);
    await checkTestSuiteImports(entry, python, projectDir, logFd, logFile, options.onLog);

    const probed = await probePython(python);
    if (probed === null) {
      throw new RepocodError(
        ENVIRONMENT_ERROR_CODE,
        `${python} does not run after the build of ${entry.name}; see ${logFile} and rebuild with fresh: true`,
      );
    }
    const packages = await listInstalledPackages(python, env).catch((error: unknown) => {
      throw new RepocodError(
        ENVIRONMENT_ERROR_CODE,
        `environment of ${entry.name} at ${path}: ${error instanceof Error ? error.message : String(error)}; see ` +
          `${logFile} and rebuild with fresh: true`,
        {
          cause: error,
        },
      );
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
      resolvedAsOf,
      builtAt: new Date().toISOString(),
      buildSeconds: Math.round((performance.now() - started) / 100) / 10,
    };
    writeEnvironmentMarker(path, marker);
    const done =
      `# built ${entry.name} in ${marker.buildSeconds} s: ${packages.length} packages, packages hash ` +
      `${marker.packagesHash}`;
    writeSync(logFd, `${done}\n`);
    options.onLog?.(done);
    return environmentOf(path, marker, true);
  } finally {
    closeSync(logFd);
  }
}

/** uv's `error: …` and pip's `ERROR: …`: the line that says why an install failed, shown first. */
const INSTALLER_ERROR = /^(?:error|ERROR):\s/;

/** Stops the build at a recipe step whose installer said the project has no such extra (recipe-extra-check.ts). */
function refuseMissingExtras(
  entry: ManifestEntry,
  command: LoggedCommand,
  lines: readonly string[],
  checkoutPath: string,
  projectDir: string,
  logFile: string,
): void {
  const declared = projectExtras(projectDir);
  const projectName = projectNameOf(projectDir);
  const missing = missingExtras(lines).filter((item) => isTheProject(item.package, checkoutPath, projectName));
  if (missing.length > 0) throw new RecipeExtraMissingError(entry.name, command.display, missing, declared, logFile);
}

/** The modules the tests import, looked for in the new environment (test-suite-imports.ts). */
async function checkTestSuiteImports(
  entry: ManifestEntry,
  python: string,
  projectDir: string,
  logFd: number,
  logFile: string,
  onLog: ((line: string) => void) | undefined,
): Promise<void> {
  const check = await checkTestImports(python, projectDir, entry.testRoots, entry.env, entry.pytestArgs);
  const missingCount = check.conftest.length + check.testFiles.length;
  const lines = [
    `# test imports: ${check.modules} top-level module(s) looked for, ${missingCount} missing`,
    ...check.testFiles.map(
      (item) =>
        `# warning: ${item.module} is not in the environment; ${item.files} test file(s) import it (${item.file}:` +
        `${item.line}) and will not collect`,
    ),
  ];
  for (const line of lines) {
    writeSync(logFd, `${line}\n`);
    onLog?.(line);
  }
  if (check.conftest.length > 0) {
    throw new TestDependencyMissingError(entry.name, check.conftest, projectExtras(projectDir), logFile);
  }
}

function requireDirectory(checkoutPath: string, name: string): void {
  let isDirectory: boolean;
  try {
    isDirectory = statSync(checkoutPath).isDirectory();
  } catch (error) {
    throw new RepocodError(
      'path-not-found',
      `checkout of ${name} not found at ${checkoutPath}; check it out before building its environment`,
      { cause: error },
    );
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
  for (const name of [
    'PYTHONPATH',
    'PYTHONHOME',
    'PYTHONSTARTUP',
    'PYTHONUSERBASE',
    '__PYVENV_LAUNCHER__',
    'CONDA_PREFIX',
    'UV_PYTHON',
  ]) {
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
    UV_EXCLUDE_NEWER: undefined,
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

/** `pip install <args>` by the environment's installer; with uv and a date, limited to releases uploaded before it. */
function installCommand(
  uv: UvTool | null,
  python: string,
  args: readonly string[],
  resolvedAsOf: string | null = null,
): LoggedCommand {
  if (uv === null) {
    const pipArgs = ['-m', 'pip', 'install', ...args];
    return { display: `${python} ${pipArgs.join(' ')}`, file: python, args: pipArgs };
  }
  // --system-certs: uv trusts its own bundled roots by default, and a machine behind a TLS proxy or a
  // company CA only has that CA in the system store (pip uses it; uv refuses the index without it).
  const date = resolvedAsOf === null ? [] : ['--exclude-newer', resolvedAsOf];
  const uvArgs = ['pip', 'install', '--no-config', '--system-certs', '--python', python, ...date, ...args];
  return { display: `${uv.path} ${uvArgs.join(' ')}`, file: uv.path, args: uvArgs };
}

function resolutionNote(wanted: string | null, resolvedAsOf: string | null): string {
  if (resolvedAsOf !== null) return `versions resolved as of ${resolvedAsOf} (uv --exclude-newer)`;
  if (wanted !== null)
    return `versions NOT limited to ${wanted}: pip cannot limit by date; install uv (scripts/setup.sh does) for that`;
  return 'versions not limited by date (no base commit pinned and no exclude_newer)';
}

/** The installer's own freeze of the venv, kept beside it: the exact set a release names in its provenance. */
async function writeFreeze(uv: UvTool | null, python: string, env: NodeJS.ProcessEnv, file: string): Promise<void> {
  const [command, args] =
    uv === null
      ? [python, ['-m', 'pip', 'freeze', '--all']]
      : [uv.path, ['pip', 'freeze', '--no-config', '--python', python]];
  const text = await new Promise<string>((resolvePromise, reject) => {
    execFile(
      command,
      args,
      { env, timeout: 120_000, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error === null) resolvePromise(stdout);
        else
          reject(
            new RepocodError(
              ENVIRONMENT_ERROR_CODE,
              `\`${command} ${args.join(' ')}\` failed: ${stderr.trim() || error.message}`,
              { cause: error },
            ),
          );
      },
    );
  });
  writeFileSync(file, text);
}

// The manifest's commands are shell text by design (`cd sub && SKIP_NPM=1 python -m pip ...`) and
// the only shell text run: bash when there is one, sh otherwise. -e so that a failing line of a
// multi-line command fails the build instead of being hidden by the next line's success.
const SHELL = existsSync('/bin/bash') ? '/bin/bash' : '/bin/sh';

function recipeCommand(command: string): LoggedCommand {
  return { display: command, file: SHELL, args: ['-e', '-c', command] };
}
