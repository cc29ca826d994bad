import { BOOLEAN, listValue, VARCHAR } from '@duckdb/node-api';
import type { ValidationStatus } from '@repocod/core';
import { VALIDATION_STATUSES } from '@repocod/core';
import { oneOf, text } from './typed-cells.js';
import { appendValidation, type StoredValidation, validationFromRow } from './validations-table.js';
import type { CatalogEngine } from './catalog-engine.js';
import { inTransaction, readRows, TEXT_LIST, withAppender } from './catalog-engine.js';

/** A validation's verdict without its evidence: what a table of all the tasks shows. */
export interface ValidationVerdictRow {
  readonly instanceId: string;
  readonly taskHash: string;
  readonly status: ValidationStatus;
}

export interface ValidationFilter {
  /** Only the validations of this repository. */
  readonly repository?: string;
  /** Only the validations of these tasks. */
  readonly instanceIds?: readonly string[];
}

/** Each task's verdicts per validation key, with their evidence: validate's table. */
export interface ValidationStore {
  /** Adds or replaces one task's validation (same instance id and validation key). */
  saveValidation(row: StoredValidation): Promise<void>;
  /** Stored validations ordered by instance id, newest first within a task. */
  validations(filter?: ValidationFilter): Promise<StoredValidation[]>;
  /** Every validation's verdict alone (no checks, logs or test lists), in the order of validations(). */
  validationVerdicts(): Promise<ValidationVerdictRow[]>;
}

export function validationStore(engine: CatalogEngine): ValidationStore {
  return {
    saveValidation(row: StoredValidation): Promise<void> {
      return engine.exclusive(`storing the validation of ${row.instanceId}`, (connection) =>
        inTransaction(connection, async () => {
          await connection.run('DELETE FROM validations WHERE instance_id = $1 AND validation_key = $2', [
            row.instanceId,
            row.validationKey,
          ]);
          await withAppender(connection, 'validations', (appender) => appendValidation(appender, row));
        }),
      );
    },

    validations(filter: ValidationFilter = {}): Promise<StoredValidation[]> {
      return engine.exclusive('reading the validations', async (connection) => {
        const reader = await connection.runAndReadAll(
          `SELECT * FROM validations
            WHERE ($1 = '' OR repository = $1) AND ($2 OR list_contains($3, instance_id))
            ORDER BY instance_id, validated_at DESC, validation_key`,
          [filter.repository ?? '', filter.instanceIds === undefined, listValue([...(filter.instanceIds ?? [])])],
          [VARCHAR, BOOLEAN, TEXT_LIST],
        );
        return reader.getRowObjects().map(validationFromRow);
      });
    },

    validationVerdicts(): Promise<ValidationVerdictRow[]> {
      return engine.exclusive('reading the verdicts', async (connection) => {
        const rows = await readRows(
          connection,
          'SELECT instance_id, task_hash, status FROM validations ORDER BY instance_id, validated_at DESC, ' +
            'validation_key',
        );
        return rows.map((row) => ({
          instanceId: text(row, 'instance_id'),
          taskHash: text(row, 'task_hash'),
          status: oneOf(row, 'status', VALIDATION_STATUSES, 'validation status'),
        }));
      });
    },
  };
}
