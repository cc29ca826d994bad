import { INTEGER, TIMESTAMP, VARCHAR } from '@duckdb/node-api';
import type { CatalogEngine } from './catalog-engine.js';
import { inTransaction, readRows } from './catalog-engine.js';
import { integer, nullableText, type Row, text, timestamp, timestampValueOf } from './typed-cells.js';

/** A published task list taken as a reference: where it came from and what its records hashed to. */
export interface StoredReference {
  readonly name: string;
  /** As given: `hub:ORG/NAME@REV`, a file or a release folder. */
  readonly source: string;
  /** The Hub revision asked for, or null (a local source is named by its content hash). */
  readonly revision: string | null;
  /** The Hub config (a release version), or null. */
  readonly config: string | null;
  /** The form of its rows (the reference package's ReferenceForm), null when no row could be read. */
  readonly form: string | null;
  readonly contentHash: string;
  readonly addedAt: Date;
}

/** One record of a reference as given, with its problem when it could not be read. */
export interface StoredReferenceRow {
  /** 1-based position in the source. */
  readonly rowNumber: number;
  readonly location: string;
  /** The keys a keyed form put the record under. */
  readonly repository: string | null;
  readonly repoId: string | null;
  /** The record's JSON as given. */
  readonly fields: string;
  /** JSON {field, message}, or null for a row that was read. */
  readonly problem: string | null;
}

export interface ReferenceSummary extends StoredReference {
  readonly rows: number;
  readonly problems: number;
}

/** The reference task lists (repocod reference). */
export interface ReferenceStore {
  /** Adds a reference with its rows, replacing one of the same name whole. */
  saveReference(reference: StoredReference, rows: readonly StoredReferenceRow[]): Promise<void>;
  reference(name: string): Promise<StoredReference | null>;
  /** Every reference with its row and problem counts, by name. */
  references(): Promise<ReferenceSummary[]>;
  /** A reference's rows in source order. */
  referenceRows(name: string): Promise<StoredReferenceRow[]>;
  /** Removes a reference and its rows; false when there was none of that name. */
  removeReference(name: string): Promise<boolean>;
}

export function referenceStore(engine: CatalogEngine): ReferenceStore {
  return {
    saveReference(reference, rows) {
      return engine.exclusive(`storing reference ${reference.name}`, (connection) =>
        inTransaction(connection, async () => {
          await connection.run('DELETE FROM reference_rows WHERE name = $1', [reference.name]);
          await connection.run('DELETE FROM reference_lists WHERE name = $1', [reference.name]);
          await connection.run(
            'INSERT INTO reference_lists VALUES ($1, $2, $3, $4, $5, $6, $7)',
            [
              reference.name,
              reference.source,
              reference.revision,
              reference.config,
              reference.form,
              reference.contentHash,
              timestampValueOf(reference.addedAt),
            ],
            [VARCHAR, VARCHAR, VARCHAR, VARCHAR, VARCHAR, VARCHAR, TIMESTAMP],
          );
          for (const row of rows)
            await connection.run(
              'INSERT INTO reference_rows VALUES ($1, $2, $3, $4, $5, $6, $7)',
              [reference.name, row.rowNumber, row.location, row.repository, row.repoId, row.fields, row.problem],
              [VARCHAR, INTEGER, VARCHAR, VARCHAR, VARCHAR, VARCHAR, VARCHAR],
            );
        }),
      );
    },

    reference(name) {
      return engine.exclusive(`reading reference ${name}`, async (connection) => {
        const rows = await readRows(connection, 'SELECT * FROM reference_lists WHERE name = $1', [name]);
        return rows[0] === undefined ? null : referenceFromRow(rows[0]);
      });
    },

    references() {
      return engine.exclusive('reading the references', async (connection) => {
        const rows = await readRows(
          connection,
          `SELECT l.*, count(r.row_number) AS row_count, count(r.problem) AS problem_count
             FROM reference_lists l LEFT JOIN reference_rows r USING (name)
            GROUP BY ALL ORDER BY l.name`,
        );
        return rows.map((row) => ({
          ...referenceFromRow(row),
          rows: Number(row.row_count),
          problems: Number(row.problem_count),
        }));
      });
    },

    referenceRows(name) {
      return engine.exclusive(`reading the rows of reference ${name}`, async (connection) => {
        const rows = await readRows(connection, 'SELECT * FROM reference_rows WHERE name = $1 ORDER BY row_number', [
          name,
        ]);
        return rows.map((row) => ({
          rowNumber: integer(row, 'row_number'),
          location: text(row, 'location'),
          repository: nullableText(row, 'repository'),
          repoId: nullableText(row, 'repo_id'),
          fields: text(row, 'fields'),
          problem: nullableText(row, 'problem'),
        }));
      });
    },

    removeReference(name) {
      return engine.exclusive(`removing reference ${name}`, (connection) =>
        inTransaction(connection, async () => {
          const found = await readRows(connection, 'SELECT name FROM reference_lists WHERE name = $1', [name]);
          await connection.run('DELETE FROM reference_rows WHERE name = $1', [name]);
          await connection.run('DELETE FROM reference_lists WHERE name = $1', [name]);
          return found.length > 0;
        }),
      );
    },
  };
}

function referenceFromRow(row: Row): StoredReference {
  return {
    name: text(row, 'name'),
    source: text(row, 'source'),
    revision: nullableText(row, 'revision'),
    config: nullableText(row, 'config'),
    form: nullableText(row, 'form'),
    contentHash: text(row, 'content_hash'),
    addedAt: timestamp(row, 'added_at'),
  };
}
