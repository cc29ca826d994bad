import { access, constants, readFile, realpath, rename, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import {
  BOOLEAN,
  type DuckDBAppender,
  type DuckDBConnection,
  DuckDBInstance,
  LIST,
  listValue,
  VARCHAR,
} from '@duckdb/node-api';
import type { ValidationStatus } from '@repocod/core';
import { RepocodError, VALIDATION_STATUSES } from '@repocod/core';
import { errorMessage, rollbackQuietly } from './duckdb-errors.js';
import { ensureFolder } from './ensure-folder.js';
import { type FileExtraction, extractionProblem } from './file-extraction.js';
import { appendFile, type CatalogFile, fileFromRow } from './files-table.js';
import { appendFunction, type CatalogFunction, functionFromRow } from './functions-table.js';
import { migrate } from './migrate.js';
import { latestSchemaVersion } from './migrations.js';
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
import { openError } from './open-error.js';
import {
  CHECKPOINT_FORMAT,
  CHECKPOINT_MANIFEST,
  CHECKPOINT_TABLES,
  type CheckpointManifest,
  type CheckpointTableCount,
  checkpointFile,
  parseCheckpointManifest,
  sqlPath,
} from './repository-checkpoint.js';
import { type QueryResult, toCell } from './query-result.js';
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
import { SerialQueue } from './serial-queue.js';
import { type StageTime, stageTimeFromRow } from './stage-times-table.js';
import {
  appendTask,
  pickFromRow,
  type SelectionPick,
  type TaskLevel,
  taskFromRow,
  TASK_SUMMARY_QUERY,
  type TaskSummary,
  taskSummaryFromRow,
  type TaskRow,
} from './tasks-tables.js';
import { type Row, double, integer, oneOf, text, timestamp, timestampValueOf } from './typed-cells.js';
import { appendValidation, type StoredValidation, validationFromRow } from './validations-table.js';

/** Where the catalog lives unless the user says otherwise, relative to the working directory. */
export const DEFAULT_CATALOG_PATH = '.repocod/catalog.duckdb';

/** Opens DuckDB in memory: nothing is written to disk (tests, dry runs). */
export const IN_MEMORY = ':memory:';

export interface KnownFile {
  readonly contentHash: string;
  readonly extractorFingerprint: string;
}

export interface CatalogRepository {
  readonly name: string;
  readonly root: string;
  readonly updatedAt: Date;
}

export interface FunctionStats {
  readonly functions: number;
  readonly candidates: number;
  /** 0 when there are no functions. */
  readonly meanComplexity: number;
  readonly maxComplexity: number;
}

export interface FunctionFilter {
  /** Only functions that pass the candidate filter (`is_candidate`). */
  readonly candidatesOnly?: boolean;
}

export type StoredTask = TaskRow & { readonly builtAt: Date };

/** A validation's verdict without its evidence: what a table of all the tasks shows. */
export interface ValidationVerdictRow {
  readonly instanceId: string;
  readonly taskHash: string;
  readonly status: ValidationStatus;
}

/** What `rankTasks` ranks by: SQL expressions over the `tasks` columns, and a quota per level. */
export interface RankQuery {
  readonly score: string;
  readonly filter: string;
  readonly quotas: Readonly<Record<TaskLevel, number>>;
}

export type RankedTask = SelectionPick & {
  readonly repository: string;
  readonly solutionTokens: number;
  /** Tasks of this level that passed the filter. */
  readonly available: number;
  readonly quota: number;
  readonly picked: boolean;
};

/** A candidate function with what its task would be given before any test runs. */
export interface ProspectiveTask {
  readonly functionId: string;
  readonly instanceId: string;
  readonly level: TaskLevel;
}

export interface ScoredProspectiveTask {
  readonly functionId: string;
  /** null when the score is SQL NULL. */
  readonly score: number | null;
  /** Whether the spec's filter keeps it (NULL counts as false, as in a WHERE). */
  readonly kept: boolean;
  readonly solutionTokens: number;
}

/** The `tasks` columns a task has before its tests are mined: what a Lite-first spec may use. */
export const PROSPECTIVE_TASK_COLUMNS = [
  'instance_id',
  'repository',
  'function_id',
  'file',
  'qualname',
  'prompt',
  'solution',
  'prompt_lines',
  'solution_lines',
  'prompt_tokens',
  'solution_tokens',
  'cc',
  'level',
] as const;

export interface ValidationFilter {
  /** Only the validations of this repository. */
  readonly repository?: string;
  /** Only the validations of these tasks. */
  readonly instanceIds?: readonly string[];
}

export interface RunFilter {
  /** Only the runs of this repository. */
  readonly repository?: string;
}

/**
 * The catalog every stage reads and writes. Calls on one Catalog run one at a time in call order
 * (one connection, one transaction at a time), so concurrent callers need no locking of their own.
 */
export interface Catalog {
  /** The path as given to openCatalog, for messages. */
  readonly path: string;
  upsertRepository(name: string, root: string): Promise<void>;
  repositories(): Promise<CatalogRepository[]>;
  /** Content hash and extractor fingerprint of every file recorded for the repository, by path. */
  knownFiles(repository: string): Promise<Map<string, KnownFile>>;
  /** The `files` rows of a repository, ordered by path. */
  files(repository: string): Promise<CatalogFile[]>;
  /**
   * Replaces, in one transaction, the file rows and function rows of the given files with the given
   * extractions: either all of them are stored or, on any failure, the catalog is left as it was.
   */
  replaceFiles(repository: string, extractions: readonly FileExtraction[]): Promise<void>;
  /** Forgets files that no longer exist, with their functions. */
  removeFiles(repository: string, files: readonly string[]): Promise<void>;
  /** The functions of a repository ordered by file, then position. */
  functions(repository: string, filter?: FunctionFilter): Promise<CatalogFunction[]>;
  /** Counts and complexity of a repository's functions, for summaries. */
  functionStats(repository: string): Promise<FunctionStats>;
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
  /** Replaces every task of the repository with these, in one transaction. */
  replaceTasks(repository: string, tasks: readonly TaskRow[]): Promise<void>;
  /** Tasks ordered by instance id, of one repository or of all. */
  tasks(repository?: string): Promise<StoredTask[]>;
  task(instanceId: string): Promise<StoredTask | null>;
  /**
   * Every task without its texts (prompt, solution, statements, patches), with the patches' sha256
   * instead: what a table of all the tasks needs, a fraction of the bytes for big FAIL_TO_PASS sets.
   */
  taskSummaries(): Promise<TaskSummary[]>;
  /**
   * Every task that passed its checks and the filter, ranked per level by the score (descending), then
   * solution tokens (descending), then instance id: the deterministic tie-break. `picked` marks the
   * first `quota` of each level. `score` and `filter` are SQL expressions over the tasks columns.
   */
  rankTasks(query: RankQuery): Promise<RankedTask[]>;
  /**
   * The score and the filter of a selection spec over tasks that do not exist yet: a repository's
   * candidate functions, each with the instance id and level it would have, as a relation named
   * `tasks` with the columns known before mining (PROSPECTIVE_TASK_COLUMNS). Lite-first mining ranks
   * candidates with it; a spec that uses a column known only after mining is refused by DuckDB.
   */
  scoreProspectiveTasks(
    repository: string,
    query: Pick<RankQuery, 'score' | 'filter'>,
    tasks: readonly ProspectiveTask[],
  ): Promise<ScoredProspectiveTask[]>;
  /** Stores a selection (its spec and its picks) under its id, replacing an earlier one of that id. */
  saveSelection(selectionId: string, spec: string, picks: readonly SelectionPick[]): Promise<void>;
  /** A stored selection's spec and picks; null when there is none of that id (the latest when no id). */
  selection(
    selectionId?: string,
  ): Promise<{ selectionId: string; spec: string; createdAt: Date; picks: SelectionPick[] } | null>;
  /** Adds or replaces one task's validation (same instance id and validation key). */
  saveValidation(row: StoredValidation): Promise<void>;
  /** Stored validations ordered by instance id, newest first within a task. */
  validations(filter?: ValidationFilter): Promise<StoredValidation[]>;
  /** Every validation's verdict alone (no checks, logs or test lists), in the order of validations(). */
  validationVerdicts(): Promise<ValidationVerdictRow[]>;
  /**
   * The environment key of the repository's most recent run at `baseCommit` (latest finish, then run
   * id): the environment its stored results came from; null when it has no run at that commit.
   */
  latestEnvironmentKey(repository: string, baseCommit: string): Promise<string | null>;
  /** Records how long a stage of a repository took, replacing what that stage recorded before. */
  recordStageTime(time: StageTime): Promise<void>;
  /** The stage times of a repository, ordered by stage name. */
  stageTimes(repository: string): Promise<StageTime[]>;
  /**
   * Writes the repository's checkpoint into the folder (see repository-checkpoint.ts): one Parquet file
   * per table and checkpoint.json, each file replaced whole.
   */
  saveCheckpoint(repository: string, folder: string): Promise<CheckpointTableCount[]>;
  /** Adds a checkpoint's rows that the catalog lacks, in one transaction; returns the rows read and added. */
  restoreCheckpoint(repository: string, folder: string): Promise<CheckpointTableCount[]>;
  /** Runs SQL given by a user (`repocod sql`) and returns the last statement's result as printable values. */
  query(sql: string): Promise<QueryResult>;
  /** Waits for pending calls, then releases the database file so that another process can open it. */
  close(): Promise<void>;
}

const TEXT_LIST = LIST(VARCHAR);

/**
 * Paths of the catalogs this process has open. DuckDB's file lock only keeps other processes out; a
 * second instance on the same file in this process would be let in and the two would overwrite each
 * other's pages.
 */
const openInThisProcess = new Set<string>();

/**
 * Opens the catalog at `path` (or `:memory:`), creating the file and its folder when missing and
 * bringing its schema up to date.
 */
export async function openCatalog(path: string): Promise<Catalog> {
  if (path === IN_MEMORY) {
    const instance = await DuckDBInstance.create(IN_MEMORY);
    return connectAndMigrate(instance, path, null);
  }

  const file = await prepareLocation(path);
  if (openInThisProcess.has(file)) {
    throw new RepocodError(
      'catalog-unwritable',
      `${path} is already open in this process; share the open Catalog or close it before opening it again`,
    );
  }
  let instance: DuckDBInstance;
  try {
    instance = await DuckDBInstance.create(file);
  } catch (error) {
    throw openError(path, error);
  }
  openInThisProcess.add(file);
  try {
    return await connectAndMigrate(instance, path, file);
  } catch (error) {
    openInThisProcess.delete(file);
    throw error;
  }
}

/**
 * Creates the catalog's folder and checks that the file can be written, so that the common mistakes
 * get a message naming the path and the cause rather than DuckDB's generic IO error. Returns the
 * absolute path with symbolic links in the folder resolved, which identifies the file in this process.
 */
async function prepareLocation(path: string): Promise<string> {
  const absolute = resolve(path);
  const folder = dirname(absolute);
  try {
    await ensureFolder(folder);
  } catch (error) {
    throw new RepocodError(
      'catalog-unwritable',
      `cannot create the folder ${folder} for the catalog ${path}: ${fsReason(error)}; choose a writable location for the catalog`,
      { cause: error },
    );
  }
  const file = join(await realpath(folder), basename(absolute));

  const existing = await stat(file).catch(() => null);
  if (existing?.isDirectory() === true) {
    throw new RepocodError(
      'catalog-unwritable',
      `${path} is a directory; give the catalog a file path such as ${join(path, 'catalog.duckdb')}`,
    );
  }
  const mustWrite = existing === null ? folder : file;
  try {
    await access(mustWrite, constants.W_OK);
  } catch (error) {
    throw new RepocodError(
      'catalog-unwritable',
      `cannot write the catalog ${path}: ${mustWrite} is not writable (${fsReason(error)}); ` +
        'fix its permissions or choose a writable location for the catalog',
      { cause: error },
    );
  }
  return file;
}

function fsReason(error: unknown): string {
  const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : '';
  switch (code) {
    case 'ENOTDIR':
      return 'a part of the path is a file, not a folder';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EROFS':
      return 'the file system is read-only';
    case 'ENOENT':
      return 'the file system refused to create it (ENOENT)';
    default:
      return errorMessage(error);
  }
}

async function connectAndMigrate(instance: DuckDBInstance, path: string, file: string | null): Promise<Catalog> {
  let connection: DuckDBConnection | null = null;
  try {
    connection = await instance.connect();
    try {
      // Timestamps the user casts or prints in `repocod sql` then read the same on every machine.
      await connection.run("SET TimeZone = 'UTC'");
    } catch {
      // Without the ICU extension DuckDB has no time zones and already works in UTC.
    }
    await migrate(connection, path);
    return new DuckDBCatalog(path, file, instance, connection);
  } catch (error) {
    connection?.closeSync();
    instance.closeSync();
    if (error instanceof RepocodError) throw error;
    throw new RepocodError('catalog-error', `cannot prepare the catalog ${path}: ${errorMessage(error)}`, {
      cause: error,
    });
  }
}

class DuckDBCatalog implements Catalog {
  private readonly queue = new SerialQueue();
  private closed = false;

  constructor(
    readonly path: string,
    private readonly file: string | null,
    private readonly instance: DuckDBInstance,
    private readonly connection: DuckDBConnection,
  ) {}

  upsertRepository(name: string, root: string): Promise<void> {
    return this.exclusive(`recording repository ${name}`, async (connection) => {
      await connection.run(
        `INSERT INTO repositories (name, root, updated_at) VALUES ($1, $2, $3)
         ON CONFLICT (name) DO UPDATE SET root = excluded.root, updated_at = excluded.updated_at`,
        [name, root, timestampValueOf(new Date())],
      );
    });
  }

  repositories(): Promise<CatalogRepository[]> {
    return this.exclusive('listing repositories', async (connection) => {
      const rows = await readRows(connection, 'SELECT name, root, updated_at FROM repositories ORDER BY name');
      return rows.map((row) => ({
        name: text(row, 'name'),
        root: text(row, 'root'),
        updatedAt: timestamp(row, 'updated_at'),
      }));
    });
  }

  knownFiles(repository: string): Promise<Map<string, KnownFile>> {
    return this.exclusive(`reading the files of ${repository}`, async (connection) => {
      const rows = await readRows(
        connection,
        'SELECT file, content_hash, extractor_fingerprint FROM files WHERE repository = $1',
        [repository],
      );
      return new Map(
        rows.map((row) => [
          text(row, 'file'),
          { contentHash: text(row, 'content_hash'), extractorFingerprint: text(row, 'extractor_fingerprint') },
        ]),
      );
    });
  }

  functionStats(repository: string): Promise<FunctionStats> {
    return this.exclusive(`summarising the functions of ${repository}`, async (connection) => {
      const [row] = await readRows(
        connection,
        `SELECT count(*)::INTEGER AS functions, (count(*) FILTER (WHERE is_candidate))::INTEGER AS candidates,
                coalesce(avg(cc), 0)::DOUBLE AS mean_cc, coalesce(max(cc), 0)::INTEGER AS max_cc
           FROM functions WHERE repository = $1`,
        [repository],
      );
      if (row === undefined) return { functions: 0, candidates: 0, meanComplexity: 0, maxComplexity: 0 };
      return {
        functions: integer(row, 'functions'),
        candidates: integer(row, 'candidates'),
        meanComplexity: double(row, 'mean_cc'),
        maxComplexity: integer(row, 'max_cc'),
      };
    });
  }

  files(repository: string): Promise<CatalogFile[]> {
    return this.exclusive(`reading the files of ${repository}`, async (connection) => {
      const rows = await readRows(connection, 'SELECT * FROM files WHERE repository = $1 ORDER BY file', [repository]);
      return rows.map(fileFromRow);
    });
  }

  replaceFiles(repository: string, extractions: readonly FileExtraction[]): Promise<void> {
    const problem = extractionProblem(extractions);
    if (problem !== null) {
      return Promise.reject(
        new RepocodError(
          'catalog-error',
          `cannot store the extraction of ${repository}: ${problem}; nothing was written`,
        ),
      );
    }
    if (extractions.length === 0) return this.exclusive('checking the catalog', async () => undefined);
    const what = `storing ${extractions.length} file(s) of ${repository}`;
    return this.exclusive(what, (connection) =>
      inTransaction(connection, async () => {
        await deleteFileRows(
          connection,
          repository,
          extractions.map((e) => e.file),
        );
        const extractedAt = new Date();
        await withAppender(connection, 'files', (appender) => {
          for (const extraction of extractions) appendFile(appender, repository, extraction, extractedAt);
        });
        await withAppender(connection, 'functions', (appender) => {
          for (const extraction of extractions) {
            for (const fn of extraction.functions) appendFunction(appender, repository, extraction.contentHash, fn);
          }
        });
      }),
    );
  }

  removeFiles(repository: string, files: readonly string[]): Promise<void> {
    if (files.length === 0) return this.exclusive('checking the catalog', async () => undefined);
    return this.exclusive(`removing ${files.length} file(s) of ${repository}`, (connection) =>
      inTransaction(connection, () => deleteFileRows(connection, repository, files)),
    );
  }

  functions(repository: string, filter: FunctionFilter = {}): Promise<CatalogFunction[]> {
    return this.exclusive(`reading the functions of ${repository}`, async (connection) => {
      const candidates = filter.candidatesOnly === true ? 'AND is_candidate' : '';
      const rows = await readRows(
        connection,
        `SELECT * FROM functions WHERE repository = $1 ${candidates} ORDER BY file, sig_start, qualname`,
        [repository],
      );
      return rows.map(functionFromRow);
    });
  }

  recordRun(run: RunRecord, results: readonly TestResultRecord[]): Promise<void> {
    const label = `run ${run.runId} of job ${run.jobHash}`;
    const problem = runProblem(run, results);
    if (problem !== null) {
      return Promise.reject(
        new RepocodError('catalog-error', `cannot record ${label}: ${problem}; nothing was written`),
      );
    }
    return this.exclusive(`recording ${label} with ${results.length} test result(s)`, (connection) =>
      inTransaction(connection, async () => {
        await connection.run('DELETE FROM test_results WHERE run_id = $1', [run.runId]);
        await connection.run('DELETE FROM runs WHERE run_id = $1', [run.runId]);
        await withAppender(connection, 'runs', (appender) => appendRun(appender, run));
        await withAppender(connection, 'test_results', (appender) => {
          for (const result of results) appendTestResult(appender, run.runId, result);
        });
      }).catch((error: unknown) => {
        throw new RepocodError(
          'catalog-error',
          `${this.path}: recording ${label} failed and nothing of it was written: ${errorMessage(error)}`,
          { cause: error },
        );
      }),
    );
  }

  runsForJob(jobHash: string): Promise<StoredRun[]> {
    return this.exclusive(`reading the runs of job ${jobHash}`, async (connection) => {
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
  }

  runs(filter: RunFilter = {}): Promise<RunRecord[]> {
    const { repository } = filter;
    return this.exclusive(
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
  }

  saveMiningBaseline(repository: string, miningKey: string, tests: readonly MiningBaselineRow[]): Promise<void> {
    return this.exclusive(`storing the mining baseline of ${repository}`, (connection) =>
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
  }

  miningBaseline(repository: string, miningKey: string): Promise<MiningBaselineRow[] | null> {
    return this.exclusive(`reading the mining baseline of ${repository}`, async (connection) => {
      const rows = await readRows(
        connection,
        'SELECT * FROM mining_baseline WHERE repository = $1 AND mining_key = $2 ORDER BY node_id',
        [repository, miningKey],
      );
      return rows.length === 0 ? null : rows.map(baselineRowFrom);
    });
  }

  saveMiningCoverage(repository: string, miningKey: string, rows: readonly MiningCoverageRow[]): Promise<void> {
    if (rows.length === 0) return this.exclusive('checking the catalog', async () => undefined);
    return this.exclusive(`storing the coverage map of ${repository}`, (connection) =>
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
  }

  miningCoverage(repository: string, miningKey: string): Promise<MiningCoverageRow[]> {
    return this.exclusive(`reading the coverage map of ${repository}`, async (connection) => {
      const rows = await readRows(
        connection,
        'SELECT * FROM mining_coverage WHERE repository = $1 AND mining_key = $2 ORDER BY function_id',
        [repository, miningKey],
      );
      return rows.map(coverageRowFrom);
    });
  }

  saveRelevantTests(repository: string, miningKey: string, mode: MiningMode, row: RelevantTestsRow): Promise<void> {
    return this.exclusive(`storing the relevant tests of ${row.qualname}`, (connection) =>
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
  }

  relevantTests(
    repository: string,
    filter: { readonly miningKey?: string; readonly mode?: MiningMode } = {},
  ): Promise<StoredRelevantTests[]> {
    return this.exclusive(`reading the relevant tests of ${repository}`, async (connection) => {
      const rows = await readRows(
        connection,
        `SELECT * FROM relevant_tests WHERE repository = $1 AND ($2 = '' OR mining_key = $2) AND ($3 = '' OR mode = $3)
         ORDER BY function_id, mining_key, mode`,
        [repository, filter.miningKey ?? '', filter.mode ?? ''],
      );
      return rows.map(relevantTestsRowFrom);
    });
  }

  replaceTasks(repository: string, tasks: readonly TaskRow[]): Promise<void> {
    return this.exclusive(`storing ${tasks.length} task(s) of ${repository}`, (connection) =>
      inTransaction(connection, async () => {
        await connection.run('DELETE FROM tasks WHERE repository = $1', [repository]);
        const builtAt = new Date();
        await withAppender(connection, 'tasks', (appender) => {
          for (const task of tasks) appendTask(appender, task, builtAt);
        });
      }),
    );
  }

  tasks(repository?: string): Promise<StoredTask[]> {
    return this.exclusive('reading the tasks', async (connection) => {
      const rows =
        repository === undefined
          ? await readRows(connection, 'SELECT * FROM tasks ORDER BY instance_id')
          : await readRows(connection, 'SELECT * FROM tasks WHERE repository = $1 ORDER BY instance_id', [repository]);
      return rows.map(taskFromRow);
    });
  }

  task(instanceId: string): Promise<StoredTask | null> {
    return this.exclusive(`reading the task ${instanceId}`, async (connection) => {
      const [row] = await readRows(connection, 'SELECT * FROM tasks WHERE instance_id = $1', [instanceId]);
      return row === undefined ? null : taskFromRow(row);
    });
  }

  taskSummaries(): Promise<TaskSummary[]> {
    return this.exclusive('reading the task summaries', async (connection) => {
      const rows = await readRows(connection, TASK_SUMMARY_QUERY);
      return rows.map(taskSummaryFromRow);
    });
  }

  rankTasks(query: RankQuery): Promise<RankedTask[]> {
    return this.exclusive('ranking the tasks', async (connection) => {
      const rows = await readRows(
        connection,
        `WITH scored AS (
           SELECT instance_id, repository, level, CAST((${query.score}) AS DOUBLE) AS score, solution_tokens
             FROM tasks WHERE checks_passed AND (${query.filter})
         ), ranked AS (
           SELECT *, CAST(row_number() OVER (PARTITION BY level ORDER BY score DESC, solution_tokens DESC, instance_id) AS INTEGER) AS rank,
                  CAST(count(*) OVER (PARTITION BY level) AS INTEGER) AS available
             FROM scored
         )
         SELECT ranked.*, quotas.quota, ranked.rank <= quotas.quota AS picked
           FROM ranked JOIN (VALUES ('self-contained', $1), ('file-level', $2), ('repo-level', $3)) AS quotas(level, quota) USING (level)
          ORDER BY level, rank`,
        [query.quotas['self-contained'], query.quotas['file-level'], query.quotas['repo-level']],
      );
      return rows.map((row) => ({
        ...pickFromRow(row),
        repository: text(row, 'repository'),
        solutionTokens: integer(row, 'solution_tokens'),
        available: integer(row, 'available'),
        quota: integer(row, 'quota'),
        picked: row.picked === true,
      }));
    });
  }

  scoreProspectiveTasks(
    repository: string,
    query: Pick<RankQuery, 'score' | 'filter'>,
    tasks: readonly ProspectiveTask[],
  ): Promise<ScoredProspectiveTask[]> {
    return this.exclusive(`scoring the candidates of ${repository}`, async (connection) => {
      // A CTE named tasks hides the table of that name, so the spec's SQL reads these rows as they are.
      const reader = await connection.runAndReadAll(
        `WITH given AS (
           SELECT unnest($2::TEXT[]) AS function_id, unnest($3::TEXT[]) AS instance_id, unnest($4::TEXT[]) AS level
         ), tasks AS (
           SELECT given.instance_id, f.repository, f.function_id, f.file, f.qualname, f.prompt, f.solution, f.prompt_lines,
                  f.solution_lines, f.prompt_tokens, f.solution_tokens, f.cc, given.level
             FROM functions f JOIN given USING (function_id) WHERE f.repository = $1
         )
         SELECT function_id, CAST((${query.score}) AS DOUBLE) AS score, coalesce((${query.filter}), false) AS kept, solution_tokens FROM tasks`,
        [
          repository,
          listValue(tasks.map((task) => task.functionId)),
          listValue(tasks.map((task) => task.instanceId)),
          listValue(tasks.map((task) => task.level)),
        ],
      );
      const rows: Row[] = reader.getRowObjects();
      return rows.map((row) => ({
        functionId: text(row, 'function_id'),
        score: row.score === null ? null : Number(row.score),
        kept: row.kept === true,
        solutionTokens: integer(row, 'solution_tokens'),
      }));
    });
  }

  saveSelection(selectionId: string, spec: string, picks: readonly SelectionPick[]): Promise<void> {
    return this.exclusive(`storing the selection ${selectionId}`, (connection) =>
      inTransaction(connection, async () => {
        await connection.run('DELETE FROM selection_picks WHERE selection_id = $1', [selectionId]);
        await connection.run('DELETE FROM selections WHERE selection_id = $1', [selectionId]);
        await connection.run('INSERT INTO selections VALUES ($1, $2, $3)', [
          selectionId,
          spec,
          timestampValueOf(new Date()),
        ]);
        for (const pick of picks) {
          await connection.run('INSERT INTO selection_picks VALUES ($1, $2, $3, $4, $5)', [
            selectionId,
            pick.instanceId,
            pick.level,
            pick.score,
            pick.rank,
          ]);
        }
      }),
    );
  }

  selection(
    selectionId?: string,
  ): Promise<{ selectionId: string; spec: string; createdAt: Date; picks: SelectionPick[] } | null> {
    return this.exclusive('reading a selection', async (connection) => {
      const [found] =
        selectionId === undefined
          ? await readRows(connection, 'SELECT * FROM selections ORDER BY created_at DESC LIMIT 1')
          : await readRows(connection, 'SELECT * FROM selections WHERE selection_id = $1', [selectionId]);
      if (found === undefined) return null;
      const id = text(found, 'selection_id');
      const picks = await readRows(
        connection,
        'SELECT * FROM selection_picks WHERE selection_id = $1 ORDER BY level, rank',
        [id],
      );
      return {
        selectionId: id,
        spec: text(found, 'spec'),
        createdAt: timestamp(found, 'created_at'),
        picks: picks.map(pickFromRow),
      };
    });
  }

  saveValidation(row: StoredValidation): Promise<void> {
    return this.exclusive(`storing the validation of ${row.instanceId}`, (connection) =>
      inTransaction(connection, async () => {
        await connection.run('DELETE FROM validations WHERE instance_id = $1 AND validation_key = $2', [
          row.instanceId,
          row.validationKey,
        ]);
        await withAppender(connection, 'validations', (appender) => appendValidation(appender, row));
      }),
    );
  }

  validations(filter: ValidationFilter = {}): Promise<StoredValidation[]> {
    return this.exclusive('reading the validations', async (connection) => {
      const reader = await connection.runAndReadAll(
        `SELECT * FROM validations
          WHERE ($1 = '' OR repository = $1) AND ($2 OR list_contains($3, instance_id))
          ORDER BY instance_id, validated_at DESC, validation_key`,
        [filter.repository ?? '', filter.instanceIds === undefined, listValue([...(filter.instanceIds ?? [])])],
        [VARCHAR, BOOLEAN, TEXT_LIST],
      );
      return reader.getRowObjects().map(validationFromRow);
    });
  }

  validationVerdicts(): Promise<ValidationVerdictRow[]> {
    return this.exclusive('reading the verdicts', async (connection) => {
      const rows = await readRows(
        connection,
        'SELECT instance_id, task_hash, status FROM validations ORDER BY instance_id, validated_at DESC, validation_key',
      );
      return rows.map((row) => ({
        instanceId: text(row, 'instance_id'),
        taskHash: text(row, 'task_hash'),
        status: oneOf(row, 'status', VALIDATION_STATUSES, 'validation status'),
      }));
    });
  }

  latestEnvironmentKey(repository: string, baseCommit: string): Promise<string | null> {
    return this.exclusive(`reading the environment of ${repository}`, async (connection) => {
      const [row] = await readRows(
        connection,
        `SELECT environment_key FROM runs WHERE repository = $1 AND base_commit = $2 AND environment_key IS NOT NULL
          ORDER BY finished_at DESC, run_id DESC LIMIT 1`,
        [repository, baseCommit],
      );
      return row === undefined ? null : text(row, 'environment_key');
    });
  }

  recordStageTime(time: StageTime): Promise<void> {
    return this.exclusive(`recording the time of ${time.stage} for ${time.repository}`, async (connection) => {
      await connection.run(
        `INSERT INTO stage_times (repository, stage, seconds, finished_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (repository, stage) DO UPDATE SET seconds = excluded.seconds, finished_at = excluded.finished_at`,
        [time.repository, time.stage, time.seconds, timestampValueOf(time.finishedAt)],
      );
    });
  }

  stageTimes(repository: string): Promise<StageTime[]> {
    return this.exclusive(`reading the stage times of ${repository}`, async (connection) => {
      const rows = await readRows(connection, 'SELECT * FROM stage_times WHERE repository = $1 ORDER BY stage', [
        repository,
      ]);
      return rows.map(stageTimeFromRow);
    });
  }

  saveCheckpoint(repository: string, folder: string): Promise<CheckpointTableCount[]> {
    return this.exclusive(`writing the checkpoint of ${repository} to ${folder}`, async (connection) => {
      await ensureFolder(folder);
      const counts: CheckpointTableCount[] = [];
      for (const table of CHECKPOINT_TABLES) {
        const where = table.where.replaceAll('$repository', `'${repository.replaceAll("'", "''")}'`);
        const select = `SELECT * FROM ${table.name} WHERE ${where} ORDER BY ${table.orderBy}`;
        const file = join(folder, checkpointFile(table));
        // Written beside, then renamed: a run killed mid-write leaves the previous file whole.
        await connection.run(`COPY (${select}) TO ${sqlPath(`${file}.partial`)} (FORMAT parquet, COMPRESSION zstd)`);
        await rename(`${file}.partial`, file);
        const [row] = await readRows(connection, `SELECT count(*) AS n FROM read_parquet(${sqlPath(file)})`);
        counts.push({ table: table.name, rows: integer(row ?? {}, 'n') });
      }
      const manifest: CheckpointManifest = {
        format: CHECKPOINT_FORMAT,
        repository,
        schema_version: latestSchemaVersion(),
        tables: Object.fromEntries(counts.map(({ table, rows }) => [table, rows])),
      };
      await writeFile(join(folder, CHECKPOINT_MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
      return counts;
    });
  }

  restoreCheckpoint(repository: string, folder: string): Promise<CheckpointTableCount[]> {
    return this.exclusive(`restoring the checkpoint of ${repository} from ${folder}`, async (connection) => {
      const manifestFile = join(folder, CHECKPOINT_MANIFEST);
      const text = await readFile(manifestFile, 'utf8').catch((error: NodeJS.ErrnoException) => {
        throw new RepocodError(
          error.code === 'ENOENT' ? 'path-not-found' : 'file-unreadable',
          `${manifestFile}: no checkpoint there (${error.code ?? error.message}); write one with ` +
            `\`repocod checkpoint save ${repository}\``,
        );
      });
      const manifest = parseCheckpointManifest(text, manifestFile, latestSchemaVersion());
      if (manifest.repository !== repository) {
        throw new RepocodError(
          'parse-error',
          `${manifestFile}: the checkpoint of ${manifest.repository}, not of ${repository}`,
        );
      }
      const tables = CHECKPOINT_TABLES.filter((table) => manifest.tables[table.name] !== undefined);
      for (const table of tables) {
        const file = join(folder, checkpointFile(table));
        const [row] = await readRows(connection, `SELECT count(*) AS n FROM read_parquet(${sqlPath(file)})`);
        const rows = integer(row ?? {}, 'n');
        if (rows !== manifest.tables[table.name]) {
          throw new RepocodError(
            'parse-error',
            `${file}: ${rows} row(s), checkpoint.json says ${manifest.tables[table.name]}; the folder is not ` +
              'one checkpoint (save it again, or restore it from the commit that wrote it)',
          );
        }
      }
      return inTransaction(connection, async () => {
        const counts: CheckpointTableCount[] = [];
        for (const table of tables) {
          const file = join(folder, checkpointFile(table));
          const before = await countRows(connection, table.name);
          // By name: a checkpoint of an older schema lacks the columns added since, which take their defaults.
          await connection.run(
            `INSERT OR IGNORE INTO ${table.name} BY NAME SELECT * FROM read_parquet(${sqlPath(file)})`,
          );
          const added = (await countRows(connection, table.name)) - before;
          counts.push({ table: table.name, rows: manifest.tables[table.name] ?? 0, added });
        }
        return counts;
      });
    });
  }

  query(sql: string): Promise<QueryResult> {
    return this.exclusive('running the query', async (connection) => {
      const reader = await connection.runAndReadAll(sql);
      return { columns: reader.columnNames(), rows: reader.getRows().map((row) => row.map(toCell)) };
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.queue.drain();
    try {
      this.connection.closeSync();
      this.instance.closeSync();
    } finally {
      if (this.file !== null) openInThisProcess.delete(this.file);
    }
  }

  /**
   * Runs one catalog operation after the ones before it, and reports any DuckDB failure as a
   * RepocodError that says what was being done.
   */
  private exclusive<T>(what: string, task: (connection: DuckDBConnection) => Promise<T>): Promise<T> {
    if (this.closed) {
      return Promise.reject(new RepocodError('catalog-error', `the catalog ${this.path} is closed (while ${what})`));
    }
    return this.queue.run(async () => {
      try {
        return await task(this.connection);
      } catch (error) {
        if (error instanceof RepocodError) throw error;
        throw new RepocodError('catalog-error', `${this.path}: ${what} failed: ${errorMessage(error)}`, {
          cause: error,
        });
      }
    });
  }
}

async function readRows(connection: DuckDBConnection, sql: string, values: (string | number)[] = []): Promise<Row[]> {
  const reader = await connection.runAndReadAll(sql, values);
  return reader.getRowObjects();
}

async function countRows(connection: DuckDBConnection, table: string): Promise<number> {
  const [row] = await readRows(connection, `SELECT count(*) AS n FROM ${table}`);
  return integer(row ?? {}, 'n');
}

async function inTransaction<T>(connection: DuckDBConnection, work: () => Promise<T>): Promise<T> {
  await connection.run('BEGIN TRANSACTION');
  try {
    const result = await work();
    await connection.run('COMMIT');
    return result;
  } catch (error) {
    await rollbackQuietly(connection);
    throw error;
  }
}

/**
 * Bulk rows go through DuckDB's appender, which writes column vectors directly instead of parsing and
 * planning an INSERT per batch; it appends inside the connection's open transaction, so a ROLLBACK
 * takes its rows back too. Closing the appender flushes it, which is where constraint violations show.
 */
async function withAppender(
  connection: DuckDBConnection,
  table: string,
  fill: (appender: DuckDBAppender) => void,
): Promise<void> {
  const appender = await connection.createAppender(table);
  try {
    fill(appender);
    appender.closeSync();
  } catch (error) {
    try {
      appender.clear();
      appender.closeSync();
    } catch {
      // The appender repeats the failure that ended the transaction; the first report is the one kept.
    }
    throw error;
  }
}

/** Deletes the `functions` and `files` rows of the given files (a semi-join, fast for long lists). */
async function deleteFileRows(
  connection: DuckDBConnection,
  repository: string,
  files: readonly string[],
): Promise<void> {
  const list = listValue([...files]);
  for (const table of ['functions', 'files']) {
    await connection.run(
      `DELETE FROM ${table} WHERE repository = $1 AND file IN (SELECT unnest($2))`,
      [repository, list],
      [VARCHAR, TEXT_LIST],
    );
  }
}
