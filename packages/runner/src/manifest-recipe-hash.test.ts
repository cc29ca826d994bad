import { describe, expect, it } from 'vitest';
import type { ManifestEntry } from './manifest.js';
import { recipeHash, stableJson } from './manifest-recipe-hash.js';

const ENTRY: ManifestEntry = {
  name: 'seaborn',
  url: 'https://github.com/mwaskom/seaborn.git',
  source: null,
  baseCommit: 'b4e5f8d261d6d5524a00b7dd35e00a40e4855872',
  python: '3.11',
  packageRoot: '.',
  install: ['python -m pip install "numpy==1.26.4"', 'python -m pip install --editable ".[stats]"'],
  testRoots: ['tests'],
  pytestArgs: ['-p', 'no:cacheprovider'],
  deselect: [],
  env: { MPLBACKEND: 'Agg', OMP_NUM_THREADS: '1' },
  timeoutSeconds: 600,
};

describe('recipeHash', () => {
  it('is a sha256 hex digest, the same for the same recipe', () => {
    expect(recipeHash(ENTRY)).toMatch(/^[0-9a-f]{64}$/);
    expect(recipeHash({ ...ENTRY })).toBe(recipeHash(ENTRY));
  });

  it('changes with what decides the environment', () => {
    const base = recipeHash(ENTRY);
    expect(recipeHash({ ...ENTRY, install: [...ENTRY.install, 'python -m pip install pytest'] })).not.toBe(base);
    expect(recipeHash({ ...ENTRY, install: [...ENTRY.install].reverse() })).not.toBe(base);
    expect(recipeHash({ ...ENTRY, python: '3.12' })).not.toBe(base);
    expect(recipeHash({ ...ENTRY, packageRoot: 'src' })).not.toBe(base);
    expect(recipeHash({ ...ENTRY, env: { MPLBACKEND: 'Agg' } })).not.toBe(base);
  });

  it('ignores how the tests are run, and the order env was written in', () => {
    const base = recipeHash(ENTRY);
    expect(recipeHash({ ...ENTRY, testRoots: ['tests/unit', 'tests/integration'] })).toBe(base);
    expect(recipeHash({ ...ENTRY, pytestArgs: [] })).toBe(base);
    expect(recipeHash({ ...ENTRY, deselect: [{ id: 'tests/test_a.py::test_b', reason: 'flaky' }] })).toBe(base);
    expect(recipeHash({ ...ENTRY, timeoutSeconds: 60 })).toBe(base);
    expect(recipeHash({ ...ENTRY, env: { OMP_NUM_THREADS: '1', MPLBACKEND: 'Agg' } })).toBe(base);
  });
});

describe('stableJson', () => {
  it('sorts keys at every level and keeps array order', () => {
    expect(stableJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: null } })).toBe(
      '{"a":{"c":null,"d":[3,{"y":2,"z":1}]},"b":1}',
    );
    expect(stableJson({ a: undefined, b: 'x' })).toBe('{"b":"x"}');
  });
});
