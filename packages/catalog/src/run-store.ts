import { DOUBLE, type DuckDBConnection, INTEGER, LIST, listValue, TIMESTAMP, VARCHAR } from '@duckdb/node-api';
import { RepocodError } from '@repocod/core';
import { errorMessage } from './duckdb-errors.js';
import {
  appendRun,
  appendTestResult,
  type RunRecord,
  runFromRow,
  runProblem,
  type StoredRun,
  type TestResultRecord,
  testResultFromRow,
} from './runs-table.js';
import { text, timestampValueOf } from './typed-cells.js';
import type { CatalogEngine } from './catalog-engine.js';
import { inTransaction, readRows, TEXT_LIST, withAppender } from './catalog-engine.js';

const DOUBLE_LIST = LIST(DOUBLE);

export interface RunFilter {
  /** Only the runs of this repository. */
  readonly repository?: string;
}

/** Every runner job's runs and per-test results, keyed by the job's content hash: the runner's tables. */
export interface RunStore {
  /**
   * Stores a finished run and its per-test results in one transaction, so a run is either wholly in
   * the catalog or not at all. Recording a run_id again replaces that run's earlier rows: a write
   * retried after a crash (when the caller cannot know whether the first one committed) must succeed
   * and leave one copy, not fail or duplicate.
   */
  recordRun(run: RunRecord, results: readonly TestResultRecord[]): Promise<void>;
  /**
   * Every stored attempt of a job, ordered by attempt, each with its results ordered by node id; empty
   * when the job never ran. This is what answers a repeated job without running it again.
   */
  runsForJob(jobHash: string): Promise<StoredRun[]>;
  /** Stored runs without their results, for listings, ordered by start time. */
  runs(filter?: RunFilter): Promise<RunRecord[]>;
  /**
   * The environment key of the repository's most recent run at `baseCommit` (latest finish, then run
   * id): the environment its stored results came from; null when it has no run at that commit.
   */
  latestEnvironmentKey(repository: string, baseCommit: string): Promise<string | null>;
  /** A run's whole output, or null when the catalog has no such run. */
  runLog(runId: string): Promise<string | null>;
}

export function runStore(engine: CatalogEngine): RunStore {
  return {
    runLog(runId: string): Promise<string | null> {
      return engine.exclusive(`reading the log of run ${runId}`, async (connection) => {
        const [row] = await readRows(connection, 'SELECT log FROM runs WHERE run_id = $1', [runId]);
        return typeof row?.log === 'string' ? row.log : null;
      });
    },

    recordRun(run: RunRecord, results: readonly TestResultRecord[]): Promise<void> {
      const label = `run ${run.runId} of job ${run.jobHash}`;
      const problem = runProblem(run, results);
      if (problem !== null) {
        return Promise.reject(
          new RepocodError('catalog-error', `cannot record ${label}: ${problem}; nothing was written`),
        );
      }
      return engine.exclusive(`recording ${label} with ${results.length} test result(s)`, (connection) =>
        inTransaction(connection, async () => {
          const [stored] = await readRows(connection, 'SELECT count(*) AS n FROM test_results WHERE run_id = $1', [
            run.runId,
          ]);
          const [known] = await readRows(connection, 'SELECT count(*) AS n FROM runs WHERE run_id = $1', [run.runId]);
          // A run recorded again is updated in place, its keys untouched: deleting the row and appending one of the
          // same key in one transaction failed fatally in DuckDB ("Failed to delete all rows from index"), as it
          // did for test_results below.
          if (Number(known?.n ?? 0) > 0) await updateRun(connection, run);
          else await withAppender(connection, 'runs', (appender) => appendRun(appender, run));
          if (Number(stored?.n ?? 0) === 0) {
            await withAppender(connection, 'test_results', (appender) => {
              for (const result of results) appendTestResult(appender, run.runId, result);
            });
            return;
          }
          // A run recorded again (a job run anew after an interrupted attempt) replaces its rows. Not by
          // deleting them and appending the same keys in one transaction: DuckDB checks the keys of appended
          // rows over-eagerly, and on a large catalog that failed fatally ("duplicate key" on test_results).
          // The ids the new run lacks are deleted, the others replaced in place.
          await connection.run('DELETE FROM test_results WHERE run_id = $1 AND NOT list_contains($2, node_id)', [
            run.runId,
            listValue(results.map((result) => result.nodeId)),
          ]);
          await connection.run(
            `INSERT OR REPLACE INTO test_results
             SELECT $1, unnest($2), unnest($3), unnest($4), unnest($5)`,
            [
              run.runId,
              listValue(results.map((result) => result.nodeId)),
              listValue(results.map((result) => result.outcome)),
              listValue(results.map((result) => result.durationSeconds)),
              listValue(results.map((result) => result.message)),
            ],
            [VARCHAR, TEXT_LIST, TEXT_LIST, DOUBLE_LIST, TEXT_LIST],
          );
        }).catch((error: unknown) => {
          throw new RepocodError(
            'catalog-error',
            `${engine.path}: recording ${label} failed and nothing of it was written: ${errorMessage(error)}`,
            { cause: error },
          );
        }),
      );
    },

    runsForJob(jobHash: string): Promise<StoredRun[]> {
      return engine.exclusive(`reading the runs of job ${jobHash}`, async (connection) => {
        const runRows = await readRows(
          connection,
          'SELECT * FROM runs WHERE job_hash = $1 ORDER BY attempt, started_at, run_id',
          [jobHash],
        );
        if (runRows.length === 0) return [];
        const resultRows = await readRows(
          connection,
          `SELECT * FROM test_results WHERE run_id IN (SELECT run_id FROM runs WHERE job_hash = $1)
           ORDER BY run_id, node_id`,
          [jobHash],
        );
        const resultsByRun = new Map<string, TestResultRecord[]>();
        for (const row of resultRows) {
          const runId = text(row, 'run_id');
          let results = resultsByRun.get(runId);
          if (results === undefined) {
            results = [];
            resultsByRun.set(runId, results);
          }
          results.push(testResultFromRow(row));
        }
        return runRows.map((row) => {
          const run = runFromRow(row);
          return { ...run, results: resultsByRun.get(run.runId) ?? [] };
        });
      });
    },

    runs(filter: RunFilter = {}): Promise<RunRecord[]> {
      const { repository } = filter;
      return engine.exclusive(
        repository === undefined ? 'listing runs' : `listing the runs of ${repository}`,
        async (connection) => {
          const rows =
            repository === undefined
              ? await readRows(connection, 'SELECT * FROM runs ORDER BY started_at, run_id')
              : await readRows(connection, 'SELECT * FROM runs WHERE repository = $1 ORDER BY started_at, run_id', [
                  repository,
                ]);
          return rows.map(runFromRow);
        },
      );
    },

    latestEnvironmentKey(repository: string, baseCommit: string): Promise<string | null> {
      return engine.exclusive(`reading the environment of ${repository}`, async (connection) => {
        const [row] = await readRows(
          connection,
          `SELECT environment_key FROM runs WHERE repository = $1 AND base_commit = $2 AND environment_key IS NOT NULL
            ORDER BY finished_at DESC, run_id DESC LIMIT 1`,
          [repository, baseCommit],
        );
        return row === undefined ? null : text(row, 'environment_key');
      });
    },
  };
}

/** Every column of a stored run but its keys (run_id, and job_hash, which the run id names) set to `run`'s. */
function updateRun(connection: DuckDBConnection, run: RunRecord): Promise<unknown> {
  return connection.run(
    `UPDATE runs SET repository = $2, base_commit = $3, environment_key = $4, recipe_hash = $5, patches_hash = $6,
       tests_hash = $7, attempt = $8, status = $9, exit_code = $10, duration_seconds = $11, network = $12,
       worker = $13, log = $14, started_at = $15, finished_at = $16
     WHERE run_id = $1`,
    [
      run.runId,
      run.repository,
      run.baseCommit,
      run.environmentKey,
      run.recipeHash,
      run.patchesHash,
      run.testsHash,
      run.attempt,
      run.status,
      run.exitCode,
      run.durationSeconds,
      run.network,
      run.worker,
      run.log,
      timestampValueOf(run.startedAt),
      timestampValueOf(run.finishedAt),
    ],
    [
      VARCHAR,
      VARCHAR,
      VARCHAR,
      VARCHAR,
      VARCHAR,
      VARCHAR,
      VARCHAR,
      INTEGER,
      VARCHAR,
      INTEGER,
      DOUBLE,
      VARCHAR,
      INTEGER,
      VARCHAR,
      TIMESTAMP,
      TIMESTAMP,
    ],
  );
}
