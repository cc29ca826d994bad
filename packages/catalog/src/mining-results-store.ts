import { listValue } from '@duckdb/node-api';
import {
  appendBaselineRow,
  appendCoverageRow,
  appendRelevantTestsRow,
  baselineRowFrom,
  coverageRowFrom,
  type MiningBaselineRow,
  type MiningCoverageRow,
  type MiningMode,
  type RelevantTestsRow,
  relevantTestsRowFrom,
  type StoredRelevantTests,
} from './mining-tables.js';
import type { CatalogEngine } from './catalog-engine.js';
import { inTransaction, readRows, withAppender } from './catalog-engine.js';

/** Mining's baseline, coverage map and relevant tests, per mining key: mine's tables. */
export interface MiningResultsStore {
  /** Replaces the baseline of a mining key with these tests, in one transaction. */
  saveMiningBaseline(repository: string, miningKey: string, tests: readonly MiningBaselineRow[]): Promise<void>;
  /** The stored baseline of a mining key, ordered by node id; null when none was stored. */
  miningBaseline(repository: string, miningKey: string): Promise<MiningBaselineRow[] | null>;
  /** Adds or replaces the coverage rows of these functions. */
  saveMiningCoverage(repository: string, miningKey: string, rows: readonly MiningCoverageRow[]): Promise<void>;
  miningCoverage(repository: string, miningKey: string): Promise<MiningCoverageRow[]>;
  /** Adds or replaces one function's mining result. */
  saveRelevantTests(repository: string, miningKey: string, mode: MiningMode, row: RelevantTestsRow): Promise<void>;
  /** Stored mining results, ordered by function id; all keys and modes unless filtered. */
  relevantTests(
    repository: string,
    filter?: { readonly miningKey?: string; readonly mode?: MiningMode },
  ): Promise<StoredRelevantTests[]>;
}

export function miningResultsStore(engine: CatalogEngine): MiningResultsStore {
  return {
    saveMiningBaseline(repository: string, miningKey: string, tests: readonly MiningBaselineRow[]): Promise<void> {
      return engine.exclusive(`storing the mining baseline of ${repository}`, (connection) =>
        inTransaction(connection, async () => {
          await connection.run('DELETE FROM mining_baseline WHERE repository = $1 AND mining_key = $2', [
            repository,
            miningKey,
          ]);
          await withAppender(connection, 'mining_baseline', (appender) => {
            for (const test of tests) appendBaselineRow(appender, repository, miningKey, test);
          });
        }),
      );
    },

    miningBaseline(repository: string, miningKey: string): Promise<MiningBaselineRow[] | null> {
      return engine.exclusive(`reading the mining baseline of ${repository}`, async (connection) => {
        const rows = await readRows(
          connection,
          'SELECT * FROM mining_baseline WHERE repository = $1 AND mining_key = $2 ORDER BY node_id',
          [repository, miningKey],
        );
        return rows.length === 0 ? null : rows.map(baselineRowFrom);
      });
    },

    saveMiningCoverage(repository: string, miningKey: string, rows: readonly MiningCoverageRow[]): Promise<void> {
      if (rows.length === 0) return engine.exclusive('checking the catalog', async () => undefined);
      return engine.exclusive(`storing the coverage map of ${repository}`, (connection) =>
        inTransaction(connection, async () => {
          await connection.run(
            'DELETE FROM mining_coverage WHERE repository = $1 AND mining_key = $2 AND list_contains($3, function_id)',
            [repository, miningKey, listValue(rows.map((row) => row.functionId))],
          );
          await withAppender(connection, 'mining_coverage', (appender) => {
            for (const row of rows) appendCoverageRow(appender, repository, miningKey, row);
          });
        }),
      );
    },

    miningCoverage(repository: string, miningKey: string): Promise<MiningCoverageRow[]> {
      return engine.exclusive(`reading the coverage map of ${repository}`, async (connection) => {
        const rows = await readRows(
          connection,
          'SELECT * FROM mining_coverage WHERE repository = $1 AND mining_key = $2 ORDER BY function_id',
          [repository, miningKey],
        );
        return rows.map(coverageRowFrom);
      });
    },

    saveRelevantTests(repository: string, miningKey: string, mode: MiningMode, row: RelevantTestsRow): Promise<void> {
      return engine.exclusive(`storing the relevant tests of ${row.qualname}`, (connection) =>
        inTransaction(connection, async () => {
          await connection.run(
            'DELETE FROM relevant_tests WHERE repository = $1 AND mining_key = $2 AND mode = $3 AND function_id = $4',
            [repository, miningKey, mode, row.functionId],
          );
          await withAppender(connection, 'relevant_tests', (appender) =>
            appendRelevantTestsRow(appender, repository, miningKey, mode, row, new Date()),
          );
        }),
      );
    },

    relevantTests(
      repository: string,
      filter: { readonly miningKey?: string; readonly mode?: MiningMode } = {},
    ): Promise<StoredRelevantTests[]> {
      return engine.exclusive(`reading the relevant tests of ${repository}`, async (connection) => {
        const rows = await readRows(
          connection,
          `SELECT * FROM relevant_tests WHERE repository = $1 AND ($2 = '' OR mining_key = $2) AND ($3 = '' OR mode ` +
            `= ` +
            `$3)
           ORDER BY function_id, mining_key, mode`,
          [repository, filter.miningKey ?? '', filter.mode ?? ''],
        );
        return rows.map(relevantTestsRowFrom);
      });
    },
  };
}
