import { access, constants, realpath, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { RepocodError } from '@repocod/core';
import { CatalogEngine } from './catalog-engine.js';
import { type ExtractionStore, extractionStore } from './extraction-store.js';
import { type RunStore, runStore } from './run-store.js';
import { type RepositoryCountsStore, repositoryCountsStore } from './repository-counts-store.js';
import { type BodyHistoryStore, bodyHistoryStore } from './body-history-store.js';
import { type MiningResultsStore, miningResultsStore } from './mining-results-store.js';
import { type TaskStore, taskStore } from './task-store.js';
import { type ValidationStore, validationStore } from './validation-store.js';
import { type EvaluationStore, evaluationStore } from './evaluation-store.js';
import { type ReferenceStore, referenceStore } from './reference-store.js';
import { type StageTimeStore, stageTimeStore } from './stage-time-store.js';
import { type JobCostStore, jobCostStore } from './job-cost-store.js';
import { type CheckpointStore, checkpointStore } from './checkpoint-store.js';
import { errorMessage } from './duckdb-errors.js';
import { ensureFolder } from './ensure-folder.js';
import { migrate } from './migrate.js';
import { openError } from './open-error.js';
import type { QueryResult } from './query-result.js';

/** Where the catalog lives unless the user says otherwise, relative to the working directory. */
export const DEFAULT_CATALOG_PATH = '.repocod/catalog.duckdb';

/** Opens DuckDB in memory: nothing is written to disk (tests, dry runs). */
export const IN_MEMORY = ':memory:';

/**
 * The catalog every stage reads and writes: an engine (one DuckDB connection, its operations one at a
 * time in call order, so concurrent callers need no locking of their own) and a store per stage's
 * tables, each behind its own interface (a stage may ask for only the store it uses).
 */
export interface Catalog
  extends ExtractionStore,
    RunStore,
    RepositoryCountsStore,
    MiningResultsStore,
    BodyHistoryStore,
    TaskStore,
    ValidationStore,
    StageTimeStore,
    JobCostStore,
    CheckpointStore,
    EvaluationStore,
    ReferenceStore {
  /** The path as given to openCatalog, for messages. */
  readonly path: string;
  /** Runs SQL given by a user (`repocod sql`) and returns the last statement's result as printable values. */
  query(sql: string): Promise<QueryResult>;
  /** Waits for pending calls, then releases the database file so that another process can open it. */
  close(): Promise<void>;
}

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
      `cannot create the folder ${folder} for the catalog ${path}: ${fsReason(error)}; choose a writable location ` +
        `for ` +
        `the catalog`,
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
    return composeCatalog(
      new CatalogEngine(path, instance, connection, () => {
        if (file !== null) openInThisProcess.delete(file);
      }),
    );
  } catch (error) {
    connection?.closeSync();
    instance.closeSync();
    if (error instanceof RepocodError) throw error;
    throw new RepocodError('catalog-error', `cannot prepare the catalog ${path}: ${errorMessage(error)}`, {
      cause: error,
    });
  }
}

function composeCatalog(engine: CatalogEngine): Catalog {
  return {
    path: engine.path,
    ...extractionStore(engine),
    ...runStore(engine),
    ...repositoryCountsStore(engine),
    ...miningResultsStore(engine),
    ...bodyHistoryStore(engine),
    ...taskStore(engine),
    ...validationStore(engine),
    ...stageTimeStore(engine),
    ...jobCostStore(engine),
    ...checkpointStore(engine),
    ...evaluationStore(engine),
    ...referenceStore(engine),
    query: (sql) => engine.query(sql),
    close: () => engine.close(),
  };
}
