import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { isRepocodError } from '@repocod/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureEnvironment, type Environment } from './environment.js';
import { ENVIRONMENT_MARKER_FILE, readEnvironmentMarker } from './environment-marker.js';
import { loadManifest, type ManifestEntry } from './manifest.js';
import { recipeHash } from './manifest-recipe-hash.js';

// The venv + pip path, on the demo's real recipe (`pip: [pytest==8.3.5]`) from PyPI.
// The uv path, and what holds for both installers (failures above all, cheap to reach with uv), is in
// environment-uv.test.ts.

const PROJECT_ROOT = resolve(new URL('../../..', import.meta.url).pathname);
const DEMO_CHECKOUT = join(PROJECT_ROOT, 'datasets/demo');
const DEMO = loadManifest(join(PROJECT_ROOT, 'datasets/demo/manifest.yaml')).repositories[0] as ManifestEntry;
const BUILD_TIMEOUT = 120_000;

const envsRoot = mkdtempSync(join(tmpdir(), 'repocod-envs-pip-'));
afterAll(() => rmSync(envsRoot, { recursive: true, force: true }), 120_000);

function runIn(environment: Environment, code: string): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(environment.python, ['-c', code], { encoding: 'utf8' });
  return { status: result.status, stdout: result.stdout.trim(), stderr: result.stderr };
}

describe('ensureEnvironment with venv + pip', () => {
  let built: Environment;
  const logLines: string[] = [];

  beforeAll(async () => {
    built = await ensureEnvironment(DEMO, DEMO_CHECKOUT, { envsRoot, uv: null, onLog: (line) => logLines.push(line) });
  }, BUILD_TIMEOUT);

  it("builds the demo's environment with the manifest's Python, the recipe and the harness", () => {
    expect(built).toMatchObject({ name: 'demo', installer: 'pip', created: true, recipeHash: recipeHash(DEMO) });
    expect(built.path).toBe(join(envsRoot, `demo-${built.key.slice(0, 16)}`));
    expect(built.python).toBe(join(built.path, 'bin', 'python'));
    expect(built.logFile).toBe(`${built.path}.log`);
    expect(built.pythonVersion).toMatch(/^3\.11\.\d+$/);
    expect(built.packagesHash).toMatch(/^[0-9a-f]{64}$/);

    const probe = runIn(
      built,
      'import sys, pytest, pytest_reportlog, coverage, pytest_timeout, pip; print(pytest.__version__, ' +
        'coverage.__version__, pip.__version__, "%d.%d.%d" % sys.version_info[:3])',
    );
    expect(probe.stderr).toBe('');
    expect(probe.stdout).toBe(`8.3.5 7.6.1 24.2 ${built.pythonVersion}`);
  });

  it('logs every command with its output beside the venv, and passes the lines on as they come', () => {
    const log = readFileSync(built.logFile, 'utf8');
    expect(log).toMatch(/\$ \S+\/bin\/python -m pip install pytest==8\.3\.5\n/);
    expect(log).toMatch(/Successfully installed .*pytest-8\.3\.5/);
    expect(log).toContain('-m pip install pytest-reportlog==1.0.0 coverage==7.6.1 pytest-timeout==2.4.0\n');
    expect(log).toContain('# built demo in');
    expect(logLines.some((line) => /^\$ \S+\/bin\/python -m pip install pytest==8\.3\.5$/.test(line))).toBe(true);
    expect(logLines.at(-1)).toMatch(/^# built demo in [\d.]+ s: \d+ packages, packages hash [0-9a-f]{64}$/);
  });

  it('records provenance in the marker: installer, interpreter, the full package list and its hash', () => {
    const marker = readEnvironmentMarker(built.path);
    expect(marker).toMatchObject({
      name: 'demo',
      key: built.key,
      installer: 'pip',
      pythonVersion: built.pythonVersion,
      packagesHash: built.packagesHash,
    });
    expect(marker?.packages).toEqual(
      expect.arrayContaining([
        'pytest==8.3.5',
        'pytest-reportlog==1.0.0',
        'coverage==7.6.1',
        'pytest-timeout==2.4.0',
        'pip==24.2',
      ]),
    );
  });

  it('reuses the finished environment while the key is unchanged', async () => {
    const started = performance.now();
    const again = await ensureEnvironment(DEMO, DEMO_CHECKOUT, { envsRoot, uv: null });
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(again).toEqual({ ...built, created: false });
  });

  it('rebuilds from scratch an environment whose build never finished (no marker)', {
    timeout: BUILD_TIMEOUT,
  }, async () => {
    rmSync(join(built.path, ENVIRONMENT_MARKER_FILE));
    const leftover = join(built.path, 'half-installed.txt');
    writeFileSync(leftover, '');
    const lines: string[] = [];
    const rebuilt = await ensureEnvironment(DEMO, DEMO_CHECKOUT, {
      envsRoot,
      uv: null,
      onLog: (line) => lines.push(line),
    });
    expect(rebuilt).toMatchObject({
      path: built.path,
      key: built.key,
      created: true,
      packagesHash: built.packagesHash,
    });
    expect(lines[0]).toContain('has no finished build');
    expect(existsSync(leftover)).toBe(false);
    expect(existsSync(join(built.path, ENVIRONMENT_MARKER_FILE))).toBe(true);
    // The log was appended to, not replaced: both builds are in it.
    expect(readFileSync(built.logFile, 'utf8').match(/# built demo in/g)).toHaveLength(2);
  });

  it('refuses a Python version this machine does not have, naming what to install', async () => {
    const error: unknown = await ensureEnvironment({ ...DEMO, python: '2.6' }, DEMO_CHECKOUT, {
      envsRoot,
      uv: null,
    }).catch((caught: unknown) => caught);
    expect(isRepocodError(error) && error.code).toBe('tool-missing');
    expect(String(error)).toContain('no Python 2.6 interpreter found');
    expect(String(error)).toContain('install Python 2.6');
  });

  it('refuses a checkout that is not there', async () => {
    const error: unknown = await ensureEnvironment({ ...DEMO, install: ['true'] }, join(envsRoot, 'no-checkout'), {
      envsRoot,
      uv: null,
    }).catch((caught: unknown) => caught);
    expect(isRepocodError(error) && error.code).toBe('path-not-found');
    expect(String(error)).toContain('checkout of demo not found');
  });
});
