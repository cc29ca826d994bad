import { describe, expect, it } from 'vitest';
import { IN_MEMORY, openCatalog } from './catalog.js';
import {
  MINING_BASELINE_COLUMNS,
  MINING_COVERAGE_COLUMNS,
  type MiningBaselineRow,
  RELEVANT_TESTS_COLUMNS,
  type RelevantTestsRow,
} from './mining-tables.js';
import { useMigratedDatabase } from './testing/test-support.js';

describe('mining tables', () => {
  const connection = useMigratedDatabase();

  it('are written in the column order the migration created', async () => {
    for (const [table, expected] of [
      ['mining_baseline', MINING_BASELINE_COLUMNS],
      ['mining_coverage', MINING_COVERAGE_COLUMNS],
      ['relevant_tests', RELEVANT_TESTS_COLUMNS],
    ] as const) {
      const reader = await connection().runAndReadAll(
        `SELECT column_name FROM duckdb_columns() WHERE table_name = '${table}' ORDER BY column_index`,
      );
      expect(reader.getRows().map((row) => row[0])).toEqual([...expected]);
    }
  });
});

describe('the catalog mining store methods', () => {
  const found: RelevantTestsRow = {
    functionId: 'r:a.py:f:3',
    qualname: 'f',
    status: 'tests',
    tests: ['t.py::a', 't.py::b[naïve]'],
    reason: null,
    method: 'in-process',
    candidates: 4,
    seconds: 0.25,
  };

  it('store and give back baselines, coverage rows and results per key and mode', async () => {
    const catalog = await openCatalog(IN_MEMORY);
    try {
      expect(await catalog.miningBaseline('r', 'k1')).toBeNull();
      const tests: MiningBaselineRow[] = [
        { nodeId: 't.py::a', status: 'passing', outcomes: ['passed', 'passed'], reason: null, seconds: 0.5 },
        {
          nodeId: 't.py::b',
          status: 'flaky',
          outcomes: ['passed', 'failed'],
          reason: 'passed in 1 of 2 runs',
          seconds: 1,
        },
      ];
      await catalog.saveMiningBaseline('r', 'k1', tests);
      await catalog.saveMiningBaseline('r', 'k1', tests);
      expect(await catalog.miningBaseline('r', 'k1')).toEqual(tests);
      expect(await catalog.miningBaseline('r', 'k2')).toBeNull();

      await catalog.saveMiningCoverage('r', 'k1', [
        { functionId: 'f', tests: ['t.py::a'], subprocessTests: [], importTime: false },
      ]);
      await catalog.saveMiningCoverage('r', 'k1', [
        { functionId: 'f', tests: ['t.py::b'], subprocessTests: ['t.py::c'], importTime: true },
        { functionId: 'g', tests: [], subprocessTests: [], importTime: false },
      ]);
      expect(await catalog.miningCoverage('r', 'k1')).toEqual([
        { functionId: 'f', tests: ['t.py::b'], subprocessTests: ['t.py::c'], importTime: true },
        { functionId: 'g', tests: [], subprocessTests: [], importTime: false },
      ]);

      await catalog.saveRelevantTests('r', 'k1', 'fast', { ...found, status: 'error', tests: [], reason: 'timeout' });
      await catalog.saveRelevantTests('r', 'k1', 'fast', found);
      await catalog.saveRelevantTests('r', 'k1', 'exact', { ...found, method: 'whole-suite' });
      const fast = await catalog.relevantTests('r', { miningKey: 'k1', mode: 'fast' });
      expect(fast).toHaveLength(1);
      expect(fast[0]).toMatchObject({ ...found, repository: 'r', miningKey: 'k1', mode: 'fast' });
      expect((await catalog.relevantTests('r')).map((row) => row.mode)).toEqual(['exact', 'fast']);
    } finally {
      await catalog.close();
    }
  });

  it('refuses a status the schema does not know, naming what was being stored', async () => {
    const catalog = await openCatalog(IN_MEMORY);
    try {
      await expect(
        catalog.saveRelevantTests('r', 'k', 'fast', { ...found, status: 'maybe' as 'tests' }),
      ).rejects.toThrow(/storing the relevant tests of f failed/);
    } finally {
      await catalog.close();
    }
  });
});
