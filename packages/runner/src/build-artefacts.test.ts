import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artefactStampPath, compiledSourcesOf, extensionModuleName } from './build-artefacts.js';
import { git } from './git.js';
import { loadManifest } from './manifest.js';
import type { ManifestEntry } from './manifest.js';
import type { PreparedRepository } from './prepare-repository.js';
import { prepareRepository, runnerPaths } from './prepare-repository.js';
import type { JobResult } from './run-job.js';
import { runJob } from './run-job.js';

const PROJECT_ROOT = resolve(new URL('../../..', import.meta.url).pathname);

function fixtureEntry(name = 'compiled-fixture'): ManifestEntry {
  const manifest = loadManifest(resolve(PROJECT_ROOT, 'datasets/compiled-fixture/manifest.yaml'));
  const entry = manifest.repositories.find((candidate) => candidate.name === name);
  if (entry === undefined) throw new Error(`no ${name} entry`);
  return entry;
}

const ADD = 'tests/test_fastmath.py::test_add';
const TOTAL = 'tests/test_fastmath.py::test_total';

function testOutcomes(result: JobResult): Record<string, string> {
  return Object.fromEntries((result.runs[0]?.results ?? []).map((test) => [test.nodeId, test.outcome]));
}

/** The C source with `add` returning one more than the sum: a patch only a rebuilt extension obeys. */
const OFF_BY_ONE = [
  'diff --git a/fastmath/_speedups.c b/fastmath/_speedups.c',
  '--- a/fastmath/_speedups.c',
  '+++ b/fastmath/_speedups.c',
  '@@ -6,5 +6,5 @@ static PyObject *add(PyObject *self, PyObject *args) {',
  '     long a, b;',
  '     if (!PyArg_ParseTuple(args, "ll", &a, &b)) return NULL;',
  '-    return PyLong_FromLong(a + b);',
  '+    return PyLong_FromLong(a + b + 1);',
  ' }',
  ' ',
  '',
].join('\n');

describe('build artefacts: the pure rules', () => {
  it('names the compiled sources a patch changes, not its Python files', () => {
    const python = '--- a/fastmath/__init__.py\n+++ b/fastmath/__init__.py\n';
    expect(compiledSourcesOf([python, OFF_BY_ONE])).toEqual(['fastmath/_speedups.c']);
    const cython = ['--- a/pkg/_x.pyx\n+++ b/pkg/_x.pyx\n', '--- /dev/null\n+++ b/pkg/meson.build\n'];
    expect(compiledSourcesOf(cython)).toEqual(['pkg/_x.pyx', 'pkg/meson.build']);
    expect(compiledSourcesOf([python])).toEqual([]);
  });

  it('turns an extension module file into its import name, and nothing else', () => {
    const pkg = { name: 'astropy', folder: 'astropy' };
    const compiler = 'astropy/utils/_compiler.cpython-311-x86_64-linux-gnu.so';
    expect(extensionModuleName(pkg, compiler)).toBe('astropy.utils._compiler');
    expect(extensionModuleName(pkg, 'astropy/_lib.abi3.so')).toBe('astropy._lib');
    expect(extensionModuleName(pkg, 'astropy/_version.py')).toBeNull();
    expect(extensionModuleName({ name: 'flask', folder: 'src/flask' }, 'src/flask/_x.so')).toBe('flask._x');
    expect(extensionModuleName(pkg, 'other/_x.so')).toBeNull();
  });
});

describe('build artefacts: a compiled project in the runner (its C extension built here)', { timeout: 600_000 }, () => {
  const stateRoot = mkdtempSync(join(tmpdir(), 'repocod-compiled-state-'));
  let prepared: PreparedRepository;
  const logs: string[] = [];
  const entry = fixtureEntry();

  beforeAll(async () => {
    const paths = runnerPaths(PROJECT_ROOT, stateRoot);
    prepared = await prepareRepository(entry, paths, { workers: 2, onLog: (line) => logs.push(line) });
  }, 600_000);

  afterAll(() => {
    rmSync(stateRoot, { recursive: true, force: true });
  });

  const run = (patches: readonly string[], worker = 0, withEntry: ManifestEntry = entry): Promise<JobResult> => {
    const job = { repository: entry.name, patches, tests: 'all' as const };
    return runJob(job, { ...prepared, entry: withEntry }, prepared.worktrees[worker]!);
  };

  it('finds the built extension where the environment imports it from, and copies it into each worktree', () => {
    const paths = prepared.artefacts.files.map((file) => file.path);
    expect(paths).toHaveLength(1);
    expect(paths[0]).toMatch(/^fastmath\/_speedups\.[\w-]+\.so$/);
    expect(prepared.artefacts.files[0]?.source).toBe(join(prepared.checkout.path, paths[0] ?? ''));
    for (const worktree of prepared.worktrees) {
      const copy = join(worktree.path, paths[0] ?? '');
      expect(statSync(copy).size).toBe(prepared.artefacts.files[0]?.bytes);
      expect(readFileSync(artefactStampPath(worktree), 'utf8').trim()).toBe(prepared.artefacts.key);
    }
    const copied = /compiled-fixture: 1 build artefact\(s\) copied into worktree\(s\) w0, w1/;
    expect(logs.some((line) => copied.test(line))).toBe(true);
  });

  it('runs the suite in a worktree on its own copy, and a second prepare copies nothing', async () => {
    const result = await run([]);
    expect(testOutcomes(result)).toEqual({ [ADD]: 'passed', [TOTAL]: 'passed' });
    const again: string[] = [];
    const paths = runnerPaths(PROJECT_ROOT, stateRoot);
    const second = await prepareRepository(entry, paths, { workers: 2, onLog: (line) => again.push(line) });
    expect(second.artefacts.key).toBe(prepared.artefacts.key);
    expect(again.some((line) => /copied into worktree/.test(line))).toBe(false);
  });

  it('rebuilds a worktree whose patch changes the C source, and gives it the shared build back after', async () => {
    const patched = await run([OFF_BY_ONE], 1);
    expect(patched.patchError).toBeNull();
    expect(testOutcomes(patched)).toEqual({ [ADD]: 'failed', [TOTAL]: 'failed' });
    const worktree = prepared.worktrees[1]!;
    expect(await git(worktree.path, ['status', '--porcelain'])).toBe('');
    const shared = prepared.artefacts.files[0]!;
    expect(readFileSync(join(worktree.path, shared.path)).equals(readFileSync(shared.source))).toBe(true);
    const after = await run([], 1);
    expect(testOutcomes(after)).toEqual({ [ADD]: 'passed', [TOTAL]: 'passed' });
  });

  it('refuses to run stale extensions when the manifest gives no build_in_place', async () => {
    const { buildInPlace: _dropped, ...withoutBuild } = entry;
    const result = await run([OFF_BY_ONE], 0, withoutBuild as ManifestEntry);
    expect(result.runs).toEqual([]);
    expect(result.patchError).toMatch(/source\(s\) fastmath\/_speedups\.c, and compiled-fixture's manifest entry/);
    expect(result.patchError).toMatch(/gives no build_in_place command/);
    expect(existsSync(join(prepared.worktrees[0]!.path, prepared.artefacts.files[0]!.path))).toBe(true);
  });
});

describe('build artefacts: the project installed into site-packages (as scikit-learn is)', { timeout: 600_000 }, () => {
  it("copies the extension from site-packages into the worktree, whose tests run the worktree's code", async () => {
    const stateRoot = mkdtempSync(join(tmpdir(), 'repocod-installed-state-'));
    try {
      const entry = fixtureEntry('compiled-fixture-installed');
      const prepared = await prepareRepository(entry, runnerPaths(PROJECT_ROOT, stateRoot), { workers: 1 });
      const [artefact] = prepared.artefacts.files;
      expect(prepared.artefacts.files).toHaveLength(1);
      expect(artefact?.source.startsWith(join(prepared.environment.python, '../..'))).toBe(true);
      expect(artefact?.source).toMatch(/site-packages\/fastmath\/_speedups\.[\w-]+\.so$/);
      // A patch to the Python half shows: the worktree's fastmath is imported, not site-packages'.
      const doubled = [
        'diff --git a/fastmath/__init__.py b/fastmath/__init__.py',
        '--- a/fastmath/__init__.py',
        '+++ b/fastmath/__init__.py',
        '@@ -23,2 +23,2 @@ def total(values):',
        '         result = add(result, value)',
        '-    return result',
        '+    return 2 * result',
        '',
      ].join('\n');
      const job = { repository: entry.name, patches: [doubled], tests: 'all' as const };
      const result = await runJob(job, prepared, prepared.worktrees[0]!);
      expect(result.patchError).toBeNull();
      expect(testOutcomes(result)).toEqual({ [ADD]: 'passed', [TOTAL]: 'failed' });
    } finally {
      rmSync(stateRoot, { recursive: true, force: true });
    }
  });
});
