import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureCheckout } from './checkout.js';
import { git } from './git.js';
import { loadManifest } from './manifest.js';
import type { PytestInvocation } from './pytest-job.js';
import { runPytest } from './pytest-job.js';
import type { Worktree } from './worktrees.js';
import { applyPatches, ensureWorktrees, resetWorktree } from './worktrees.js';

const PROJECT_ROOT = resolve(new URL('../../..', import.meta.url).pathname);
// The tools venv of scripts/setup.sh has pytest and the harness plugins; the environment module
// builds real per-repository venvs, tested on its own.
const TOOLS_PYTHON = resolve(PROJECT_ROOT, '.repocod/tools/py/bin/python');
let worktree: Worktree;

beforeAll(async () => {
  const entry = loadManifest(resolve(PROJECT_ROOT, 'datasets/demo/manifest.yaml')).repositories[0];
  if (entry === undefined) throw new Error('no demo entry');
  const checkout = await ensureCheckout(entry, {
    reposRoot: mkdtempSync(join(tmpdir(), 'repocod-repos-')),
    projectRoot: PROJECT_ROOT,
  });
  const [first] = await ensureWorktrees(checkout, 1, mkdtempSync(join(tmpdir(), 'repocod-worktrees-')));
  if (first === undefined) throw new Error('no worktree');
  worktree = first;
});

function invocation(tests: PytestInvocation['tests'], timeoutSeconds = 120): PytestInvocation {
  return {
    python: existsSync(TOOLS_PYTHON) ? TOOLS_PYTHON : 'python3',
    projectDir: worktree.path,
    tests,
    testRoots: ['tests'],
    pytestArgs: ['-p', 'no:cacheprovider'],
    deselect: [],
    env: {},
    timeoutSeconds,
  };
}

/** A process's state letter (R, S, Z, …) from /proc, or `gone`. */
function processState(pid: number): string {
  const stat = `/proc/${pid}/stat`;
  if (!existsSync(stat)) return 'gone';
  return readFileSync(stat, 'utf8').split(') ').at(-1)?.split(' ')[0] ?? 'gone';
}

/** A diff made by git from an edit of one file of the worktree. */
async function patchOf(file: string, edit: (text: string) => string): Promise<string> {
  const path = join(worktree.path, file);
  const original = readFileSync(path, 'utf8');
  writeFileSync(path, edit(original));
  const diff = await git(worktree.path, ['diff']);
  writeFileSync(path, original);
  return `${diff}\n`;
}

describe('runPytest on the demo', () => {
  it('runs the whole suite cleanly with structured results', { timeout: 120_000 }, async () => {
    const run = await runPytest(invocation('all'));
    expect(run.status).toBe('ok');
    expect(run.results.length).toBeGreaterThanOrEqual(150);
    const count = (outcome: string): number => run.results.filter((result) => result.outcome === outcome).length;
    expect([count('failed'), count('error'), count('xfailed'), count('skipped')]).toEqual([0, 0, 1, 1]);
    expect(run.network).toMatch(/isolated/);
  });

  it('reports exactly the tests a broken function makes fail, and a requested id that does not exist as missing', {
    timeout: 120_000,
  }, async () => {
    const broken = await patchOf('inventory/util.py', (text) =>
      text.replace(
        'def slugify(text, sep="-"):\n',
        'def slugify(text, sep="-"):\n    raise AssertionError("mutated")\n',
      ),
    );
    expect(await applyPatches(worktree, [broken])).toEqual({ ok: true });
    try {
      const ids = [
        'tests/test_util.py::test_slugify_custom_separator',
        'tests/test_util.py::test_round_money_rounds_half_up[2.675-2-2.68]',
        'tests/test_util.py::test_no_such_test',
      ];
      const run = await runPytest(invocation(ids));
      expect(run.status).toBe('ok');
      expect(run.results.map((result) => [result.nodeId, result.outcome])).toEqual([
        [ids[0], 'failed'],
        [ids[1], 'passed'],
        [ids[2], 'missing'],
      ]);
    } finally {
      await resetWorktree(worktree);
    }
  });

  it('kills a hanging test at the timeout and reports it as a timeout', { timeout: 120_000 }, async () => {
    writeFileSync(join(worktree.path, 'tests/test_hang.py'), 'import time\n\ndef test_hangs():\n    time.sleep(600)\n');
    try {
      const started = performance.now();
      const run = await runPytest(invocation(['tests/test_hang.py::test_hangs'], 3));
      expect(run.status).toBe('timeout');
      expect(performance.now() - started).toBeLessThan(60_000);
    } finally {
      await resetWorktree(worktree);
    }
  });

  it('ends what a test started and left running when the run ends', { timeout: 120_000 }, async () => {
    const pidFile = join(mkdtempSync(join(tmpdir(), 'repocod-leftover-')), 'pid');
    writeFileSync(
      join(worktree.path, 'tests/test_leftover.py'),
      `import subprocess\n\ndef test_leaves_a_process():\n    child = subprocess.Popen(['sleep', '300'])\n` +
        `    open(${JSON.stringify(pidFile)}, 'w').write(str(child.pid))\n`,
    );
    try {
      const started = performance.now();
      const run = await runPytest(invocation(['tests/test_leftover.py::test_leaves_a_process']));
      expect(run.status).toBe('ok');
      expect(run.results.map((test) => test.outcome)).toEqual(['passed']);
      expect(performance.now() - started).toBeLessThan(60_000);
      const pid = Number(readFileSync(pidFile, 'utf8'));
      expect(pid).toBeGreaterThan(0);
      // Killed with its group: gone, or a zombie until init reaps it (state Z in /proc/PID/stat).
      expect(processState(pid)).toMatch(/^(gone|Z)$/);
    } finally {
      await resetWorktree(worktree);
    }
  });

  it('ends a process that outlives its session (a thread left running) and keeps its results', {
    timeout: 120_000,
  }, async () => {
    // A non-daemon thread keeps the interpreter waiting at exit after pytest has reported the session's end.
    writeFileSync(
      join(worktree.path, 'tests/test_thread.py'),
      'import threading, time\n\ndef test_leaves_a_thread():\n' +
        '    threading.Thread(target=time.sleep, args=(600,)).start()\n\ndef test_fails():\n    assert False\n',
    );
    try {
      const started = performance.now();
      const run = await runPytest({
        ...invocation(['tests/test_thread.py::test_leaves_a_thread', 'tests/test_thread.py::test_fails'], 100),
        exitGraceSeconds: 1,
      });
      expect(performance.now() - started).toBeLessThan(60_000);
      expect(run.status).toBe('ok');
      expect(run.results.map((test) => [test.nodeId, test.outcome]).sort()).toEqual([
        ['tests/test_thread.py::test_fails', 'failed'],
        ['tests/test_thread.py::test_leaves_a_thread', 'passed'],
      ]);
      // pytest's own exit status (1: a test failed), not the signal that ended the process.
      expect(run.exitCode).toBe(1);
      expect(run.log).toContain('the runner ended it');
    } finally {
      await resetWorktree(worktree);
    }
  });

  it('keeps, from a run killed at its limit, the results of the tests that finished before', {
    timeout: 120_000,
  }, async () => {
    writeFileSync(join(worktree.path, 'tests/test_hang.py'), 'import time\n\ndef test_hangs():\n    time.sleep(600)\n');
    try {
      const run = await runPytest(
        invocation(['tests/test_util.py::test_slugify_custom_separator', 'tests/test_hang.py::test_hangs'], 10),
      );
      expect(run.status).toBe('timeout');
      // The hung test had passed its setup when the run was killed: an error, never a pass.
      expect(run.results.map((test) => test.outcome)).toEqual(['passed', 'error']);
    } finally {
      await resetWorktree(worktree);
    }
  });

  it('reports a module that no longer imports as a collection error', { timeout: 120_000 }, async () => {
    const broken = await patchOf('inventory/util.py', (text) => `import no_such_module_repocod\n${text}`);
    expect(await applyPatches(worktree, [broken])).toEqual({ ok: true });
    try {
      const run = await runPytest(invocation('all'));
      expect(run.status).toBe('collection-error');
      expect(run.log).toContain('no_such_module_repocod');
    } finally {
      await resetWorktree(worktree);
    }
  });
});
