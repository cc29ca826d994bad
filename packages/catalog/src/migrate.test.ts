import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrate } from './migrate.js';
import { MIGRATIONS, type Migration } from './migrations.js';

async function tables(connection: DuckDBConnection): Promise<string[]> {
  const reader = await connection.runAndReadAll('SELECT table_name FROM duckdb_tables() ORDER BY table_name');
  return reader.getRows().map((row) => String(row[0]));
}

async function versions(connection: DuckDBConnection): Promise<number[]> {
  const reader = await connection.runAndReadAll('SELECT version FROM schema_migrations ORDER BY version');
  return reader.getRows().map((row) => Number(row[0]));
}

describe('migrate', () => {
  let instance: DuckDBInstance;
  let connection: DuckDBConnection;

  beforeEach(async () => {
    instance = await DuckDBInstance.create(':memory:');
    connection = await instance.connect();
  });
  afterEach(() => {
    connection.closeSync();
    instance.closeSync();
  });

  it('creates the tables of migration 1 and records its version', async () => {
    expect(await migrate(connection, 'test')).toEqual([1]);
    expect(await tables(connection)).toEqual(['files', 'functions', 'repositories', 'schema_migrations']);
    expect(await versions(connection)).toEqual([1]);
  });

  it('does nothing the second time', async () => {
    await migrate(connection, 'test');
    expect(await migrate(connection, 'test')).toEqual([]);
    expect(await versions(connection)).toEqual([1]);
  });

  it('applies only the migrations appended since the last run', async () => {
    await migrate(connection, 'test');
    const later: Migration[] = [...MIGRATIONS, { version: 2, name: 'runs', sql: 'CREATE TABLE runs (id INTEGER)' }];
    expect(await migrate(connection, 'test', later)).toEqual([2]);
    expect(await tables(connection)).toContain('runs');
    expect(await versions(connection)).toEqual([1, 2]);
  });

  it('leaves the catalog at the previous version when a migration fails', async () => {
    const broken: Migration[] = [
      ...MIGRATIONS,
      { version: 2, name: 'half done', sql: 'CREATE TABLE half (id INTEGER); SELECT * FROM no_such_table' },
    ];
    await expect(migrate(connection, 'cat.duckdb', broken)).rejects.toMatchObject({
      code: 'catalog-error',
      message: expect.stringMatching(/cat\.duckdb: migration 2 \("half done"\) failed, the catalog was left at version 1: .*no_such_table/),
    });
    expect(await tables(connection)).not.toContain('half');
    expect(await versions(connection)).toEqual([1]);
  });

  it('refuses a catalog written by a newer schema', async () => {
    const newer: Migration[] = [...MIGRATIONS, { version: 2, name: 'future', sql: 'SELECT 1' }];
    await migrate(connection, 'test', newer);
    await expect(migrate(connection, 'cat.duckdb')).rejects.toMatchObject({
      code: 'catalog-error',
      message: expect.stringContaining('cat.duckdb has schema version 2'),
    });
  });

  it('refuses a misnumbered migration list before touching the database', async () => {
    await expect(migrate(connection, 'test', [{ version: 2, name: 'x', sql: 'SELECT 1' }])).rejects.toMatchObject({
      code: 'catalog-error',
    });
    expect(await tables(connection)).toEqual([]);
  });
});
