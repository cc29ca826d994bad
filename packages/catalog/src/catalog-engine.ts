import type { DuckDBAppender, DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { LIST, VARCHAR } from '@duckdb/node-api';
import { RepocodError } from '@repocod/core';
import { errorMessage, rollbackQuietly } from './duckdb-errors.js';

import { type QueryResult, toCell } from './query-result.js';
import { SerialQueue } from './serial-queue.js';
import type { Row } from './typed-cells.js';
import { integer } from './typed-cells.js';

/**
 * The catalog's engine, which every table's store runs on: one DuckDB connection whose operations run
 * one at a time in call order (one transaction at a time, so concurrent callers need no locking of
 * their own), each DuckDB failure reported as a RepocodError saying what was being done; SQL given by
 * a user; and closing, which waits for pending operations.
 */
export class CatalogEngine {
  private readonly queue = new SerialQueue();
  private closed = false;

  constructor(
    readonly path: string,
    private readonly instance: DuckDBInstance,
    private readonly connection: DuckDBConnection,
    /** Called once the file is released (the open catalogs of this process forget it). */
    private readonly onClose: () => void,
  ) {}

  /**
   * Runs one catalog operation after the ones before it, and reports any DuckDB failure as a
   * RepocodError that says what was being done.
   */
  exclusive<T>(what: string, task: (connection: DuckDBConnection) => Promise<T>): Promise<T> {
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

  /** Runs SQL given by a user (`repocod sql`) and returns the last statement's result as printable values. */
  query(sql: string): Promise<QueryResult> {
    return this.exclusive('running the query', async (connection) => {
      const reader = await connection.runAndReadAll(sql);
      return { columns: reader.columnNames(), rows: reader.getRows().map((row) => row.map(toCell)) };
    });
  }

  /** Waits for pending calls, then releases the database file so that another process can open it. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.queue.drain();
    try {
      this.connection.closeSync();
      this.instance.closeSync();
    } finally {
      this.onClose();
    }
  }
}

export const TEXT_LIST = LIST(VARCHAR);

export async function readRows(
  connection: DuckDBConnection,
  sql: string,
  values: (string | number)[] = [],
): Promise<Row[]> {
  const reader = await connection.runAndReadAll(sql, values);
  return reader.getRowObjects();
}

export async function countRows(connection: DuckDBConnection, table: string): Promise<number> {
  const [row] = await readRows(connection, `SELECT count(*) AS n FROM ${table}`);
  return integer(row ?? {}, 'n');
}

export async function inTransaction<T>(connection: DuckDBConnection, work: () => Promise<T>): Promise<T> {
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
export async function withAppender(
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
