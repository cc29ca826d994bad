import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Catalog } from '@repocod/catalog';
import { openCatalog } from '@repocod/catalog';
import { DEFAULT_EXTRACTION_CONFIG } from './extractor-fingerprint.js';
import type { FunctionMining } from '@repocod/mining';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MineCommandOptions } from '../commands/mine.js';
import type { MineSummary } from './mine.js';
import { runMineCommand } from '../commands/mine.js';

const PROJECT_ROOT = resolve(new URL('../../../..', import.meta.url).pathname);
const EDGE = 'mining-edge-cases';
const state = mkdtempSync(join(tmpdir(), 'repocod-mine-'));
// Every function with a docstring is a target here, however short the docstring.
const EVERY_DOCUMENTED = {
  ...DEFAULT_EXTRACTION_CONFIG,
  candidateFilter: { minDocstringLinesExclusive: 0, includeNested: true },
};
const options: MineCommandOptions = {
  projectRoot: PROJECT_ROOT,
  stateRoot: state,
  manifest: join(PROJECT_ROOT, 'datasets/mining-edge-cases/manifest.yaml'),
  repository: EDGE,
  workers: 2,
  extraction: EVERY_DOCUMENTED,
  mode: 'fast',
};

let catalog: Catalog;
let fast: MineSummary;
let exact: MineSummary;

const CORE = 'tests/test_core.py';
const PASSING = [
  'tests/test_cases.py::test_square[1]',
  'tests/test_cases.py::test_square[2]',
  'tests/test_cases.py::test_square[3]',
  `${CORE}::test_add_two`,
  `${CORE}::test_config_name`,
  `${CORE}::test_config_size`,
  `${CORE}::test_countdown`,
  `${CORE}::test_fib_again_from_cache`,
  `${CORE}::test_fib_small`,
  `${CORE}::test_registry_double`,
  `${CORE}::test_shout_in_child_process`,
  `${CORE}::test_without_config`,
  'tests/test_shapes.py::test_area',
  'tests/test_shapes.py::test_labelled_describe',
  'tests/test_shapes.py::test_unit_and_sides',
  'tests/test_tables.py::test_table',
  'tests/test_tables.py::test_table_size',
  'tests/test_units.py::test_kilometre',
];

function byQualname(summary: MineSummary): Map<string, FunctionMining> {
  return new Map(summary.functions.map((fn) => [fn.qualname, fn]));
}

beforeAll(async () => {
  // test_flaky fails on every other run, counted in this file (see its docstring).
  process.env.EDGE_FLAKY_FILE = join(state, 'flaky-runs');
  catalog = await openCatalog(join(state, 'catalog.duckdb'));
  fast = await runMineCommand(catalog, { ...options, confirm: true });
  exact = await runMineCommand(catalog, { ...options, mode: 'exact' });
}, 600_000);

afterAll(async () => {
  await catalog.close();
});

describe('runMineCommand on the edge-case project', () => {
  it('finds flaky tests in the baseline and leaves them out', () => {
    const flaky = fast.baseline.tests.filter((test) => test.status === 'flaky');
    expect(flaky.map((test) => test.nodeId)).toEqual([`${CORE}::test_flaky`]);
    expect(flaky[0]?.reason).toMatch(/passed in [12] of 3 runs/);
    expect([...fast.baseline.passing].sort()).toEqual(PASSING);
    const mined = byQualname(fast);
    expect(mined.get('flaky_target')).toMatchObject({ status: 'no-tests', method: 'coverage' });
    expect(mined.get('flaky_target')?.reason).toMatch(/only tests that do not pass/);
  });

  it('gives every function the relevant tests each edge case calls for', () => {
    const mined = byQualname(fast);
    const expected: Record<string, { tests: string[]; method: FunctionMining['method'] }> = {
      'Square.area': { tests: ['tests/test_shapes.py::test_area'], method: 'in-process' },
      'Square.unit': { tests: ['tests/test_shapes.py::test_unit_and_sides'], method: 'in-process' },
      'Square.sides': { tests: ['tests/test_shapes.py::test_unit_and_sides'], method: 'in-process' },
      'Square.describe': { tests: ['tests/test_shapes.py::test_labelled_describe'], method: 'in-process' },
      // Uses super(): its code has a __class__ cell, which the swapped code must share.
      'LabelledSquare.describe': { tests: ['tests/test_shapes.py::test_labelled_describe'], method: 'in-process' },
      // Reached through a registry filled at import time.
      double: { tests: [`${CORE}::test_registry_double`], method: 'in-process' },
      // A closure made at import time.
      'make_adder.<locals>.add': { tests: [`${CORE}::test_add_two`], method: 'in-process' },
      // lru_cache: the second test would be answered from the cache if it were not cleared.
      fib: { tests: [`${CORE}::test_fib_again_from_cache`, `${CORE}::test_fib_small`], method: 'in-process' },
      countdown: { tests: [`${CORE}::test_countdown`], method: 'in-process' },
      // Run once by a module-scoped fixture, inside the first test that asks for it; both users depend on it.
      make_config: { tests: [`${CORE}::test_config_name`, `${CORE}::test_config_size`], method: 'in-process' },
      // Only in a child process.
      shout: { tests: [`${CORE}::test_shout_in_child_process`], method: 'in-process' },
      // At import time: the suite collected with the mutation. register breaks conftest's import, so every test.
      register: { tests: PASSING, method: 'fresh-process' },
      make_adder: { tests: PASSING, method: 'fresh-process' },
      build_table: {
        tests: ['tests/test_tables.py::test_table', 'tests/test_tables.py::test_table_size'],
        method: 'fresh-process',
      },
      // At the import of a test module, which builds its parametrize table with it.
      square_cases: {
        tests: [
          'tests/test_cases.py::test_square[1]',
          'tests/test_cases.py::test_square[2]',
          'tests/test_cases.py::test_square[3]',
        ],
        method: 'fresh-process',
      },
      // At import time behind a fallback that swallows the exception: the suite collects in full, so the whole suite
      // runs.
      load_units: { tests: ['tests/test_units.py::test_kilometre'], method: 'whole-suite' },
    };
    for (const [qualname, want] of Object.entries(expected)) {
      expect({ qualname, ...mined.get(qualname) }).toMatchObject({
        qualname,
        status: 'tests',
        tests: want.tests,
        method: want.method,
      });
    }
    expect(mined.get('unused')).toMatchObject({
      status: 'no-tests',
      method: 'coverage',
      reason: 'no test runs its body',
    });
  });

  it('gives exactly the sets of the exact mode, and every in-process answer is confirmed in a fresh process', () => {
    expect(fast.confirmed).toBe(fast.functions.filter((fn) => fn.method === 'in-process').length);
    expect(fast.mismatches).toEqual([]);
    const exactSets = new Map(exact.functions.map((fn) => [fn.id, [fn.status, fn.tests]]));
    expect(new Map(fast.functions.map((fn) => [fn.id, [fn.status, fn.tests]]))).toEqual(exactSets);
    expect(exact.functions.every((fn) => fn.method === 'whole-suite')).toBe(true);
    // The exact mode reused the baseline the fast mode stored.
    expect(exact.phases.map((phase) => phase.phase)).toEqual(['mutation']);
  });

  it('stores every result in the catalog, and a rerun answers from there without running anything', {
    timeout: 60_000,
  }, async () => {
    const rows = await catalog.relevantTests(EDGE, { mode: 'fast' });
    expect(rows.map((row) => [row.functionId, row.tests])).toEqual(
      fast.functions.map((fn) => [fn.id, fn.tests]).sort((a, b) => (String(a[0]) < String(b[0]) ? -1 : 1)),
    );
    const again = await runMineCommand(catalog, options);
    expect(again.resumed).toBe(fast.functions.length);
    expect(again.phases).toEqual([]);
    expect(again.functions).toEqual(fast.functions);
  });

  it('resumes a run that stopped part way: only the functions without a result are mined', {
    timeout: 300_000,
  }, async () => {
    const fresh = await openCatalog(join(state, 'resume.duckdb'));
    try {
      const part = await runMineCommand(fresh, { ...options, only: ['Square.area', 'fib'] });
      expect(part.functions.map((fn) => fn.qualname).sort()).toEqual(['Square.area', 'fib']);
      const rest = await runMineCommand(fresh, options);
      expect(rest.resumed).toBe(2);
      // The stored baseline is reused: only the traced run is made again (its two shards), for the
      // coverage of the functions not yet covered.
      expect(rest.phases[0]).toMatchObject({ phase: 'baseline', processes: 2 });
      expect(new Map(rest.functions.map((fn) => [fn.id, fn.tests]))).toEqual(
        new Map(fast.functions.map((fn) => [fn.id, fn.tests])),
      );
    } finally {
      await fresh.close();
    }
  });

  it('names a --only that matches no candidate, with near names', async () => {
    await expect(runMineCommand(catalog, { ...options, only: ['Square.aera'] })).rejects.toThrow(
      /--only Square\.aera: no candidate function of mining-edge-cases.*did you mean/,
    );
  });

  it('stops with tests-cannot-run when no test passes at the base commit', { timeout: 300_000 }, async () => {
    const manifest = join(state, 'broken.yaml');
    writeFileSync(
      manifest,
      [
        'repositories:',
        `  - name: ${EDGE}`,
        '    source: datasets/mining-edge-cases',
        '    python: "3.11"',
        '    package_root: .',
        '    install:',
        '      - python -m pip install pytest==8.3.5',
        '    test_roots: [tests]',
        '    pytest_args: ["--no-such-option"]',
        '    timeout: 60',
        '',
      ].join('\n'),
    );
    const broken = await openCatalog(join(state, 'broken.duckdb'));
    try {
      await expect(runMineCommand(broken, { ...options, manifest })).rejects.toMatchObject({
        code: 'tests-cannot-run',
      });
    } finally {
      await broken.close();
    }
  });
});
