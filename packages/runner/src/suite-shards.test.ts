import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureCheckout } from './checkout.js';
import { loadManifest } from './manifest.js';
import type { PytestInvocation } from './pytest-job.js';
import { runPytest } from './pytest-job.js';
import { listTestFiles, shardSelection, shardTimeoutSeconds, splitSuite } from './suite-shards.js';

const PROJECT_ROOT = resolve(new URL('../../..', import.meta.url).pathname);
const DEMO = resolve(PROJECT_ROOT, 'datasets/demo');
const TOOLS_PYTHON = resolve(PROJECT_ROOT, '.repocod/tools/py/bin/python');
const DEMO_FILES = [
  'tests/test_cli.py',
  'tests/test_errors.py',
  'tests/test_integration.py',
  'tests/test_models.py',
  'tests/test_orders.py',
  'tests/test_pricing.py',
  'tests/test_reports.py',
  'tests/test_util.py',
  'tests/test_warehouse.py',
];

describe('listTestFiles', () => {
  it("lists the demo's test files under its test root, sorted, conftest.py left out", () => {
    const files = listTestFiles(DEMO, ['tests']);
    expect(files.map((file) => file.path)).toEqual(DEMO_FILES);
    expect(files.every((file) => file.bytes > 0)).toBe(true);
  });

  it('keeps a test root that is a file, and skips a root that does not exist', () => {
    expect(listTestFiles(DEMO, ['tests/conftest.py', 'no-such-folder']).map((file) => file.path)).toEqual([
      'tests/conftest.py',
    ]);
  });
});

describe('splitSuite', () => {
  const files = listTestFiles(DEMO, ['tests']);

  it('puts every file in exactly one shard, at most filesPerShard each, one rest shard last', () => {
    const shards = splitSuite(files, { workers: 2, filesPerShard: 2 });
    expect(shards).toHaveLength(5);
    expect(shards.flatMap((shard) => shard.files).sort()).toEqual(DEMO_FILES);
    expect(
      shards.every((shard) => shard.files.length <= 2 && [...shard.files].sort().join() === shard.files.join()),
    ).toBe(true);
    expect(shards.map((shard) => shard.rest)).toEqual([false, false, false, false, true]);
    expect(shards.map((shard) => shard.cost)).toEqual([...shards.map((shard) => shard.cost)].sort((a, b) => b - a));
    expect(splitSuite([...files].reverse(), { workers: 2, filesPerShard: 2 })).toEqual(shards);
  });

  it('makes at least one shard per worker, and balances by durations when they are known', () => {
    expect(splitSuite(files, { workers: 4 })).toHaveLength(4);
    const durations = new Map([['tests/test_util.py', 100]]);
    const [slow, ...others] = splitSuite(files, { workers: 2, durations });
    expect(slow?.files).toEqual(['tests/test_util.py']);
    expect(others.flatMap((shard) => shard.files)).toHaveLength(DEMO_FILES.length - 1);
  });

  it('gives a suite without test files one rest shard: the whole test roots', () => {
    const shards = splitSuite([], { workers: 3 });
    expect(shards).toEqual([{ files: [], rest: true, cost: 0 }]);
    expect(shardSelection(shards, 0)).toEqual({});
    expect(shardTimeoutSeconds(shards[0] ?? { files: [], rest: true, cost: 0 }, 600)).toBe(600);
  });

  it('gives a shard the per-test timeout for each of its files', () => {
    expect(shardTimeoutSeconds({ files: ['a', 'b', 'c'], rest: false, cost: 1 }, 600)).toBe(1800);
    expect(shardTimeoutSeconds({ files: ['a', 'b', 'c'], rest: true, cost: 1 }, 600)).toBe(2400);
  });
});

describe('shards of a real suite', () => {
  let projectDir: string;
  beforeAll(async () => {
    const entry = loadManifest(resolve(DEMO, 'manifest.yaml')).repositories[0];
    if (entry === undefined) throw new Error('no demo entry');
    projectDir = (
      await ensureCheckout(entry, {
        reposRoot: mkdtempSync(join(tmpdir(), 'repocod-repos-')),
        projectRoot: PROJECT_ROOT,
      })
    ).path;
  });

  function invocation(fields: { testRoots: readonly string[]; ignore?: readonly string[] }): PytestInvocation {
    return {
      python: existsSync(TOOLS_PYTHON) ? TOOLS_PYTHON : 'python3',
      projectDir,
      tests: 'all',
      // check_*.py too: a file pytest collects that no listed name matches, which only the rest shard may run.
      pytestArgs: ['-p', 'no:cacheprovider', '-o', 'python_files=test_*.py check_*.py'],
      deselect: [],
      env: {},
      timeoutSeconds: 120,
      ...fields,
    };
  }

  it('runs, over all its shards, every test of the whole suite exactly once', { timeout: 120_000 }, async () => {
    writeFileSync(join(projectDir, 'tests/check_extra.py'), 'def test_extra():\n    assert True\n');
    const extra = { testRoots: ['tests'] };
    const whole = await runPytest(invocation(extra));
    expect(whole.status).toBe('ok');
    expect(whole.results.length).toBeGreaterThan(100);
    const shards = splitSuite(listTestFiles(projectDir, ['tests']), { workers: 2, filesPerShard: 3 });
    expect(shards.length).toBeGreaterThan(2);
    const ids: string[] = [];
    for (const [index] of shards.entries()) {
      const selection = shardSelection(shards, index);
      const roots = selection.paths ?? extra.testRoots;
      const run = await runPytest(invocation({ testRoots: roots, ignore: selection.ignore }));
      expect(run.status).toBe('ok');
      ids.push(...run.results.map((test) => test.nodeId));
    }
    expect(ids.sort()).toEqual(whole.results.map((test) => test.nodeId).sort());
    expect(ids).toContain('tests/check_extra.py::test_extra');
  });
});
