import { listValue } from '@duckdb/node-api';
import type { CatalogEngine } from './catalog-engine.js';
import { inTransaction, readRows } from './catalog-engine.js';
import { integer, nullableText, nullableTimestamp, text, timestamp, timestampValueOf } from './typed-cells.js';

/** When one function's body last changed at a base commit (a row of `body_history`). */
export interface BodyHistoryRow {
  readonly functionId: string;
  /** The commit of the body's newest code line; null when the body has no code line. */
  readonly bodyCommit: string | null;
  /**
   * That line's author time; null with bodyCommit, and also for a body blame could date only as an upper bound (a
   * clone that lacks a blob `git blame -C` reads: runner's blame-bodies.ts), which is then not counted as changed.
   */
  readonly bodyChangedAt: Date | null;
}

/** Which dating a row belongs to: the base commit the bodies were blamed at, and the blame options used. */
export interface BodyHistoryKey {
  readonly repository: string;
  readonly baseCommit: string;
  readonly blameArgs: string;
}

/** One way a repository's bodies were dated at a base commit: its key's `blameArgs`, and when it last dated one. */
export interface BodyHistoryDating {
  readonly blameArgs: string;
  /** The latest `dated_at` of its rows. */
  readonly datedAt: Date;
  readonly rows: number;
}

/** The dates of function bodies: what `--changed-since` reads, computed once per base commit and blame options. */
export interface BodyHistoryStore {
  /** Adds or replaces the rows of these functions under the key. */
  saveBodyHistory(key: BodyHistoryKey, rows: readonly BodyHistoryRow[]): Promise<void>;
  /** The stored rows under the key, by function id. */
  bodyHistory(key: BodyHistoryKey): Promise<Map<string, BodyHistoryRow>>;
  /**
   * Every way the repository's bodies were dated at the base commit, the most recent first (then by blameArgs):
   * what publish and record read to know how a repository was dated without being told again.
   */
  bodyHistoryDatings(repository: string, baseCommit: string): Promise<BodyHistoryDating[]>;
}

export function bodyHistoryStore(engine: CatalogEngine): BodyHistoryStore {
  return {
    saveBodyHistory(key: BodyHistoryKey, rows: readonly BodyHistoryRow[]): Promise<void> {
      return engine.exclusive(`storing the body dates of ${key.repository}`, (connection) =>
        inTransaction(connection, async () => {
          if (rows.length === 0) return;
          await connection.run(
            `DELETE FROM body_history WHERE repository = $1 AND base_commit = $2 AND blame_args = $3
             AND list_contains($4, function_id)`,
            [key.repository, key.baseCommit, key.blameArgs, listValue(rows.map((row) => row.functionId))],
          );
          const datedAt = timestampValueOf(new Date());
          for (const row of rows)
            await connection.run('INSERT INTO body_history VALUES ($1, $2, $3, $4, $5, $6, $7)', [
              key.repository,
              key.baseCommit,
              row.functionId,
              key.blameArgs,
              row.bodyCommit,
              row.bodyChangedAt === null ? null : timestampValueOf(row.bodyChangedAt),
              datedAt,
            ]);
        }),
      );
    },

    bodyHistory(key: BodyHistoryKey): Promise<Map<string, BodyHistoryRow>> {
      return engine.exclusive(`reading the body dates of ${key.repository}`, async (connection) => {
        const rows = await readRows(
          connection,
          `SELECT function_id, body_commit, body_changed_at FROM body_history
           WHERE repository = $1 AND base_commit = $2 AND blame_args = $3 ORDER BY function_id`,
          [key.repository, key.baseCommit, key.blameArgs],
        );
        return new Map(
          rows.map((row) => {
            const bodyCommit = nullableText(row, 'body_commit');
            const entry: BodyHistoryRow = {
              functionId: text(row, 'function_id'),
              bodyCommit,
              bodyChangedAt: bodyCommit === null ? null : nullableTimestamp(row, 'body_changed_at'),
            };
            return [entry.functionId, entry];
          }),
        );
      });
    },

    bodyHistoryDatings(repository: string, baseCommit: string): Promise<BodyHistoryDating[]> {
      return engine.exclusive(`reading how the bodies of ${repository} were dated`, async (connection) => {
        const rows = await readRows(
          connection,
          `SELECT blame_args, max(dated_at) AS dated_at, count(*) AS row_count FROM body_history
           WHERE repository = $1 AND base_commit = $2 GROUP BY blame_args ORDER BY max(dated_at) DESC, blame_args`,
          [repository, baseCommit],
        );
        return rows.map((row) => ({
          blameArgs: text(row, 'blame_args'),
          datedAt: timestamp(row, 'dated_at'),
          rows: integer(row, 'row_count'),
        }));
      });
    },
  };
}
