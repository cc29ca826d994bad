import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { isRepocodError } from '@repocod/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureEnvironment, type Environment } from './environment.js';
import { EnvironmentError } from './environment-error.js';
import { readEnvironmentMarker } from './environment-marker.js';
import { findUv } from './environment-uv.js';
import { loadManifest, type ManifestEntry } from './manifest.js';
import { findPythonInterpreter } from './python-interpreter.js';

// The uv path. uv is not on this machine by default, so the suite installs a pinned uv into a venv
// of its own. Cheap uv builds also carry the checks that hold for either installer (key changes,
// concurrent callers, fresh, failures, timeouts).

const UV_REQUIREMENT = 'uv==0.13.9';
const PROJECT_ROOT = resolve(new URL('../../..', import.meta.url).pathname);
const DEMO_CHECKOUT = join(PROJECT_ROOT, 'datasets/demo');
const DEMO = loadManifest(join(PROJECT_ROOT, 'datasets/demo/manifest.yaml')).repositories[0] as ManifestEntry;
const BUILD_TIMEOUT = 120_000;

const scratch = mkdtempSync(join(tmpdir(), 'repocod-envs-uv-'));
const envsRoot = join(scratch, 'envs');
let uv: string;
afterAll(() => rmSync(scratch, { recursive: true, force: true }), 120_000);

beforeAll(async () => {
  const python = await findPythonInterpreter('3.11');
  const toolVenv = join(scratch, 'uv-venv');
  execFileSync(python.path, ['-m', 'venv', toolVenv]);
  execFileSync(join(toolVenv, 'bin', 'python'), ['-m', 'pip', 'install', '--quiet', UV_REQUIREMENT], {
    stdio: 'ignore',
  });
  uv = join(toolVenv, 'bin', 'uv');
}, BUILD_TIMEOUT);

function runIn(environment: Environment, args: readonly string[]): string {
  const result = spawnSync(environment.python, args, { encoding: 'utf8' });
  expect(result.stderr).toBe('');
  return result.stdout.trim();
}

describe('findUv', () => {
  it('uses no uv when told so, and the given one when it runs', async () => {
    expect(await findUv(null, envsRoot)).toBeNull();
    expect(await findUv(uv, envsRoot)).toEqual({ path: uv, version: expect.stringMatching(/^uv 0\.13\.9\b/) });
  });

  it('refuses a given uv that does not run, saying how to fall back', async () => {
    const error: unknown = await findUv(join(scratch, 'no-uv'), envsRoot).catch((caught: unknown) => caught);
    expect(isRepocodError(error) && error.code).toBe('tool-missing');
    expect(String(error)).toContain('pass uv: null');
  });

  it("looks on PATH, then in the tools venv beside the envs root, then setup's, else goes without", async () => {
    const projectRoot = join(scratch, 'project', '.repocod');
    const noSetup = join(scratch, 'no-setup-uv');
    expect(await findUv(undefined, join(projectRoot, 'envs'), '', noSetup)).toBeNull();
    // A worker's own state folder (--state DIR) has no tools venv: it takes the one setup.sh installed.
    expect(await findUv(undefined, join(projectRoot, 'envs'), '', uv)).toMatchObject({ path: uv });
    expect(await findUv(undefined, join(projectRoot, 'envs'), join(scratch, 'uv-venv', 'bin'), noSetup)).toMatchObject({
      path: uv,
    });
    mkdirSync(join(projectRoot, 'tools', 'py', 'bin'), { recursive: true });
    symlinkSync(uv, join(projectRoot, 'tools', 'py', 'bin', 'uv'));
    expect(await findUv(undefined, join(projectRoot, 'envs'), '', noSetup)).toMatchObject({
      path: join(projectRoot, 'tools', 'py', 'bin', 'uv'),
    });
  });
});

describe('environments resolved as of a date', () => {
  /**
   * A project of ours that needs `six`, whose releases are dated: 1.15.0 (2020-05), 1.16.0 (2021-05),
   * 1.17.0 (2024-12). (Not a dependency of the harness, which is installed undated after the recipe.)
   */
  function datedProject(committedAt: string | null): { checkout: string; entry: ManifestEntry } {
    const checkout = mkdtempSync(join(scratch, 'dated-'));
    writeFileSync(join(checkout, 'README'), 'a project that needs six\n');
    const entry: ManifestEntry = { ...DEMO, name: 'dated', install: [{ pip: ['six'] }] };
    if (committedAt === null) return { checkout, entry };
    const env = {
      ...process.env,
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@t',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@t',
      GIT_COMMITTER_DATE: committedAt,
      GIT_AUTHOR_DATE: committedAt,
    };
    execFileSync('git', ['init', '--quiet', checkout]);
    execFileSync('git', ['-C', checkout, 'add', '.'], { env });
    execFileSync('git', ['-C', checkout, 'commit', '--quiet', '--no-gpg-sign', '-m', 'dated'], { env });
    const commit = execFileSync('git', ['-C', checkout, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
    return { checkout, entry: { ...entry, url: null, source: checkout, baseCommit: commit } };
  }

  it('resolves a fixed exclude_newer date: six as of 2022-01-01 is 1.16.0', { timeout: BUILD_TIMEOUT }, async () => {
    const { checkout, entry } = datedProject(null);
    const environment = await ensureEnvironment({ ...entry, excludeNewer: '2022-01-01' }, checkout, { envsRoot, uv });
    expect(environment.resolvedAsOf).toBe('2022-01-01T00:00:00Z');
    expect(environment.packages).toContain('six==1.16.0');
    expect(readFileSync(environment.freezeFile, 'utf8')).toMatch(/^six==1\.16\.0$/m);
    expect(readEnvironmentMarker(environment.path)?.resolvedAsOf).toBe('2022-01-01T00:00:00Z');
    const log = readFileSync(environment.logFile, 'utf8');
    expect(log).toContain('# versions resolved as of 2022-01-01T00:00:00Z (uv --exclude-newer)');
    expect(log).toContain('--exclude-newer 2022-01-01T00:00:00Z six');
    // Another date is another environment.
    const later = await ensureEnvironment({ ...entry, excludeNewer: '2025-01-01' }, checkout, { envsRoot, uv });
    expect(later.key).not.toBe(environment.key);
    expect(later.packages).toContain('six==1.17.0');
  });

  it("resolves as of the pinned base commit's committer timestamp by default", { timeout: BUILD_TIMEOUT }, async () => {
    const { checkout, entry } = datedProject('2021-03-01T12:00:00+02:00');
    const environment = await ensureEnvironment(entry, checkout, {
      envsRoot,
      uv,
      baseCommit: entry.baseCommit ?? undefined,
    });
    expect(environment.resolvedAsOf).toBe('2021-03-01T10:00:00Z');
    expect(environment.packages).toContain('six==1.15.0');
    // `none` lifts the limit: the newest six, another environment.
    const undated = await ensureEnvironment({ ...entry, excludeNewer: 'none' }, checkout, {
      envsRoot,
      uv,
      baseCommit: entry.baseCommit ?? undefined,
    });
    expect(undated.resolvedAsOf).toBeNull();
    expect(undated.packages).not.toContain('six==1.15.0');
  });

  it('builds undated with pip, and says so in the log', { timeout: BUILD_TIMEOUT }, async () => {
    const { checkout, entry } = datedProject(null);
    const environment = await ensureEnvironment({ ...entry, excludeNewer: '2022-01-01' }, checkout, {
      envsRoot,
      uv: null,
    });
    expect(environment).toMatchObject({ installer: 'pip', resolvedAsOf: null });
    const log = readFileSync(environment.logFile, 'utf8');
    expect(log).toContain('# versions NOT limited to 2022-01-01T00:00:00Z: pip cannot limit by date');
    expect(log).toMatch(/\/python -m pip install six\n/);
    expect(readFileSync(environment.freezeFile, 'utf8')).toMatch(/^six==/m);
  });
});

describe('ensureEnvironment with uv', () => {
  let built: Environment;

  beforeAll(async () => {
    built = await ensureEnvironment(DEMO, DEMO_CHECKOUT, { envsRoot, uv });
  }, BUILD_TIMEOUT);

  it("builds the demo's environment, with pip in it so the recipe's `python -m pip` works", () => {
    expect(built).toMatchObject({ name: 'demo', installer: 'uv', created: true });
    expect(built.pythonVersion).toMatch(/^3\.11\.\d+$/);
    expect(
      runIn(built, ['-c', 'import pytest, pytest_reportlog, coverage, pytest_timeout; print(pytest.__version__)']),
    ).toBe('8.3.5');
    expect(runIn(built, ['-m', 'pip', '--version'])).toMatch(/^pip 24\.2 /);
    const log = readFileSync(built.logFile, 'utf8');
    expect(log).toMatch(/installer uv 0\.13\.9/);
    expect(log).toContain(' venv --no-config --no-python-downloads --python ');
    expect(log).toMatch(/\$ \S+\/uv pip install --no-config --system-certs --python \S+ pytest==8\.3\.5\n/);
    // The demo pins no base commit and sets no exclude_newer: undated, and its log says so.
    expect(log).toContain('# versions not limited by date');
    expect(built.resolvedAsOf).toBeNull();
    expect(readFileSync(built.freezeFile, 'utf8')).toMatch(/^pytest==8\.3\.5$/m);
  });

  it('is reused, and rebuilt when asked for a fresh one', { timeout: BUILD_TIMEOUT }, async () => {
    expect(await ensureEnvironment(DEMO, DEMO_CHECKOUT, { envsRoot, uv })).toEqual({ ...built, created: false });
    const fresh = await ensureEnvironment(DEMO, DEMO_CHECKOUT, { envsRoot, uv, fresh: true });
    expect(fresh).toEqual({ ...built, created: true });
  });

  it("runs the recipe at the checkout with the venv first on PATH, VIRTUAL_ENV and the manifest's env; a changed " +
    'recipe is a new environment', {
    timeout: BUILD_TIMEOUT,
  }, async () => {
    const checkout = mkdtempSync(join(scratch, 'checkout-'));
    const probe =
      'echo "$PWD|$VIRTUAL_ENV|$(command -v ' +
      'python)|$DEMO_SETTING|$PIP_DISABLE_PIP_VERSION_CHECK|$TZ|$PYTHONHASHSEED" ' +
      '> "$VIRTUAL_ENV/probe.txt"';
    const changed: ManifestEntry = { ...DEMO, install: [...DEMO.install, probe], env: { DEMO_SETTING: 'on' } };
    // Two callers at once: one builds, the other waits for it and reuses the result.
    const [first, second] = await Promise.all([
      ensureEnvironment(changed, checkout, { envsRoot, uv }),
      ensureEnvironment(changed, checkout, { envsRoot, uv }),
    ]);
    expect([first.created, second.created].sort()).toEqual([false, true]);
    expect(first.path).toBe(second.path);
    expect(first.key).not.toBe(built.key);
    expect(first.path).not.toBe(built.path);
    expect(existsSync(built.python)).toBe(true);
    const facts = readFileSync(join(first.path, 'probe.txt'), 'utf8').trim();
    expect(facts).toBe(`${checkout}|${first.path}|${first.python}|on|1|UTC|0`);
  });

  it("takes the checkout's commit into the key", { timeout: BUILD_TIMEOUT }, async () => {
    const atCommit = await ensureEnvironment(DEMO, DEMO_CHECKOUT, {
      envsRoot,
      uv,
      baseCommit: '0123456789abcdef0123456789abcdef01234567',
    });
    expect(atCommit.created).toBe(true);
    expect(atCommit.path).not.toBe(built.path);
  });

  it('throws an EnvironmentError with the command, its exit code, the log and its tail when the recipe fails', {
    timeout: BUILD_TIMEOUT,
  }, async () => {
    const broken: ManifestEntry = {
      ...DEMO,
      install: ['python -m pip install this-package-does-not-exist-repocod==1.0'],
    };
    const error: unknown = await ensureEnvironment(broken, DEMO_CHECKOUT, { envsRoot, uv }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(EnvironmentError);
    const failure = error as EnvironmentError;
    expect(isRepocodError(failure)).toBe(true);
    expect(failure).toMatchObject({
      repository: 'demo',
      command: 'python -m pip install this-package-does-not-exist-repocod==1.0',
      exitCode: 1,
    });
    expect(failure.message).toContain(
      '`python -m pip install this-package-does-not-exist-repocod==1.0` exited with code 1',
    );
    expect(failure.message).toContain(`Full log: ${failure.logFile}`);
    expect(failure.logTail.length).toBeGreaterThan(0);
    expect(failure.logTail.length).toBeLessThanOrEqual(20);
    expect(failure.message).toMatch(
      /\| ERROR: No matching distribution found for this-package-does-not-exist-repocod==1\.0/,
    );
    expect(failure.message).toContain('| # exit 1 after');
    // Left without a marker, so the next call rebuilds it rather than using it.
    expect(readEnvironmentMarker(failure.logFile.replace(/\.log$/, ''))).toBeNull();
  });

  it('throws an EnvironmentError for a recipe command that exits non-zero', { timeout: BUILD_TIMEOUT }, async () => {
    const broken: ManifestEntry = { ...DEMO, install: ['echo "about to fail"', 'exit 3'] };
    const error: unknown = await ensureEnvironment(broken, DEMO_CHECKOUT, { envsRoot, uv }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(EnvironmentError);
    const failure = error as EnvironmentError;
    expect(failure).toMatchObject({ repository: 'demo', command: 'exit 3', exitCode: 3, timedOut: false });
    expect(failure.message).toContain('`exit 3` exited with code 3');
    expect(failure.message).toContain(`Full log: ${failure.logFile}`);
    expect(failure.logTail.slice(-4)).toEqual([
      'about to fail',
      expect.stringMatching(/^# exit 0 after/),
      '$ exit 3',
      expect.stringMatching(/^# exit 3 after/),
    ]);
  });

  it('fails a multi-line command at its first failing line', { timeout: BUILD_TIMEOUT }, async () => {
    const broken: ManifestEntry = { ...DEMO, install: ['false\necho "not reached"'] };
    const error: unknown = await ensureEnvironment(broken, DEMO_CHECKOUT, { envsRoot, uv }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(EnvironmentError);
    expect((error as EnvironmentError).exitCode).toBe(1);
    expect((error as EnvironmentError).logTail).not.toContain('not reached');
  });

  it('kills a command that outlives the per-command timeout', { timeout: BUILD_TIMEOUT }, async () => {
    const hanging: ManifestEntry = { ...DEMO, install: ['sleep 60'] };
    const started = performance.now();
    const error: unknown = await ensureEnvironment(hanging, DEMO_CHECKOUT, {
      envsRoot,
      uv,
      commandTimeoutSeconds: 2,
    }).catch((caught: unknown) => caught);
    expect(performance.now() - started).toBeLessThan(30_000);
    expect(error).toBeInstanceOf(EnvironmentError);
    expect(error).toMatchObject({ command: 'sleep 60', exitCode: null, timedOut: true });
    expect(String(error)).toContain('was killed after 2 s, the per-command timeout');
  });
});
