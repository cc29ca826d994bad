import type { DuckDBConnection } from '@duckdb/node-api';
import { RepocodError } from '@repocod/core';
import { checkMigrationOrder, latestSchemaVersion, type Migration, MIGRATIONS } from './migrations.js';
import { errorMessage, rollbackQuietly } from './duckdb-errors.js';

/**
 * Brings a catalog's schema up to date and returns the versions it applied (empty when there was
 * nothing to do). Each migration runs in its own transaction together with its `schema_migrations`
 * row, so a failure leaves the catalog at the previous version, never half-way through one.
 */
export async function migrate(
  connection: DuckDBConnection,
  label: string,
  migrations: readonly Migration[] = MIGRATIONS,
): Promise<number[]> {
  const orderProblem = checkMigrationOrder(migrations);
  if (orderProblem !== null)
    throw new RepocodError('catalog-error', `catalog migrations are misnumbered: ${orderProblem}`);

  await connection.run(`
    CREATE TABLE IF NOT EXISTS schema_migrations (
      version INTEGER PRIMARY KEY,
      name TEXT NOT NULL,
      applied_at TIMESTAMP NOT NULL
    )
  `);
  const reader = await connection.runAndReadAll('SELECT coalesce(max(version), 0) FROM schema_migrations');
  const current = Number(reader.getRows()[0]?.[0] ?? 0);

  const latest = latestSchemaVersion(migrations);
  if (current > latest) {
    throw new RepocodError(
      'catalog-error',
      `${label} has schema version ${current} but this repocod-kit knows only up to ${latest}; ` +
        'it was written by a newer version: upgrade repocod-kit or choose another catalog path',
    );
  }

  const applied: number[] = [];
  for (const migration of migrations.filter((m) => m.version > current)) {
    try {
      await connection.run('BEGIN TRANSACTION');
      await connection.run(migration.sql);
      await connection.run('INSERT INTO schema_migrations VALUES ($1, $2, now()::TIMESTAMP)', [
        migration.version,
        migration.name,
      ]);
      await connection.run('COMMIT');
    } catch (error) {
      await rollbackQuietly(connection);
      throw new RepocodError(
        'catalog-error',
        `${label}: migration ${migration.version} ("${migration.name}") failed, the catalog was left at version ` +
          `${applied.at(-1) ?? current}: ${errorMessage(error)}`,
        { cause: error },
      );
    }
    applied.push(migration.version);
  }
  return applied;
}
