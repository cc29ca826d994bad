import { join } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openCatalog } from './catalog.js';
import { appendFile } from './files-table.js';
import { appendFunction } from './functions-table.js';
import { migrate } from './migrate.js';
import { MIGRATIONS, type Migration } from './migrations.js';
import { byNodeId, makeTempDir, okExtraction, syntheticResults, syntheticRun } from './testing/test-support.js';

/** The version a migration appended by a later release would have. */
const NEXT = MIGRATIONS.length + 1;
const LATEST = MIGRATIONS.length;

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

  it('creates the tables of every migration and records their versions', async () => {
    expect(await migrate(connection, 'test')).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
    expect(await tables(connection)).toEqual([
      'body_history',
      'evaluation_runs',
      'evaluations',
      'files',
      'functions',
      'instance_id_renames',
      'job_costs',
      'mining_baseline',
      'mining_coverage',
      'reference_lists',
      'reference_rows',
      'relevant_tests',
      'repositories',
      'runs',
      'schema_migrations',
      'selection_picks',
      'selections',
      'stage_times',
      'task_levels',
      'tasks',
      'test_results',
      'validations',
    ]);
    expect(await versions(connection)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
    const indexes = await connection.runAndReadAll('SELECT index_name, table_name FROM duckdb_indexes()');
    expect(indexes.getRows()).toContainEqual(['runs_job_hash', 'runs']);
  });

  it('does nothing the second time', async () => {
    await migrate(connection, 'test');
    expect(await migrate(connection, 'test')).toEqual([]);
    expect(await versions(connection)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
  });

  it('applies only the migrations appended since the last run', async () => {
    expect(await migrate(connection, 'test', MIGRATIONS.slice(0, 1))).toEqual([1]);
    expect(await migrate(connection, 'test')).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
    const later: Migration[] = [
      ...MIGRATIONS,
      { version: NEXT, name: 'later', sql: 'CREATE TABLE later (id INTEGER)' },
    ];
    expect(await migrate(connection, 'test', later)).toEqual([NEXT]);
    expect(await tables(connection)).toContain('later');
    expect(await versions(connection)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, NEXT]);
  });

  it('keeps the validations stored before migration 6, with nothing recorded of the run without the body', async () => {
    expect(await migrate(connection, 'test', MIGRATIONS.slice(0, 5))).toEqual([1, 2, 3, 4, 5]);
    const row = (id: string): string =>
      `'${id}', 'task-${id}', 'key', 'demo', 'failed', '[]', ['t.py::a'], [], [], 'tool', '3.11.7', 'p', 'e', ` +
      `['r:1'], ` +
      `3, 1.5, TIMESTAMP '2026-01-02 03:04:05'`;
    await connection.run(`INSERT INTO validations VALUES (${row('a')}), (${row('b')})`);
    expect(await migrate(connection, 'test')).toEqual([6, 7, 8, 9, 10, 11, 12, 13]);
    const reader = await connection.runAndReadAll(
      'SELECT instance_id, status, fail_to_pass, passing_without_body, without_body_complete, gold_from, ' +
        'gold_baseline_key FROM validations ORDER BY instance_id',
    );
    expect(reader.getRowObjectsJson()).toEqual([
      {
        instance_id: 'a',
        status: 'failed',
        fail_to_pass: ['t.py::a'],
        passing_without_body: [],
        without_body_complete: null,
        gold_from: 'runs',
        gold_baseline_key: null,
      },
      {
        instance_id: 'b',
        status: 'failed',
        fail_to_pass: ['t.py::a'],
        passing_without_body: [],
        without_body_complete: null,
        gold_from: 'runs',
        gold_baseline_key: null,
      },
    ]);
    await expect(
      connection.run(`INSERT INTO validations VALUES (${row('a')}, [], NULL, 'runs', NULL)`),
    ).rejects.toThrow(/PRIMARY KEY|constraint/i);
  });

  it("renames plotly.py's instance ids from its package root wherever an id is kept, with a record", async () => {
    expect(await migrate(connection, 'test', MIGRATIONS.slice(0, 10))).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    const old = 'plotly__plotly.py-packages.python.plotly.plotly.graph_objs._figure.Figure.show';
    const kept = 'pallets__flask-flask.app.Flask.make_response';
    for (const id of [old, kept]) {
      await connection.run(
        `INSERT INTO validations (instance_id, task_hash, validation_key, repository, status, checks, fail_to_pass,
           flaky_tests, dropped_tests, tool_version, python_version, packages_hash, environment_key, run_ids, repeat,
           seconds, validated_at)
         VALUES ($1, 'h', 'k', 'r', 'passed', '[]', [], [], [], 't', '3.11', 'p', 'e', [], 3, 1, now())`,
        [id],
      );
      await connection.run("INSERT INTO selection_picks VALUES ('s1', $1, 'file-level', 10, 1)", [id]);
      await connection.run("INSERT INTO task_levels VALUES ($1, 'r', 'deps', 'file-level', '[]')", [id]);
    }
    expect(await migrate(connection, 'test')).toEqual([11, 12, 13]);
    const rows = async (sql: string): Promise<string[]> =>
      (await connection.runAndReadAll(sql)).getRows().map((row) => row.map(String).join(' '));
    const renamed = 'plotly__plotly.py-plotly.graph_objs._figure.Figure.show';
    for (const table of ['validations', 'selection_picks', 'task_levels'])
      expect(await rows(`SELECT instance_id FROM ${table} ORDER BY 1`), table).toEqual([kept, renamed]);
    expect(await rows('SELECT old_id, new_id, repository FROM instance_id_renames')).toEqual([
      `${old} ${renamed} plotly.py`,
    ]);
  });

  it('leaves the catalog at the previous version when a migration fails', async () => {
    const broken: Migration[] = [
      ...MIGRATIONS,
      { version: NEXT, name: 'half done', sql: 'CREATE TABLE half (id INTEGER); SELECT * FROM no_such_table' },
    ];
    await expect(migrate(connection, 'cat.duckdb', broken)).rejects.toMatchObject({
      code: 'catalog-error',
      message: expect.stringMatching(
        new RegExp(
          `cat\\.duckdb: migration ${NEXT} \\("half done"\\) failed, the catalog was left at version ${LATEST}: ` +
            `.*no_such_table`,
        ),
      ),
    });
    expect(await tables(connection)).not.toContain('half');
    expect(await versions(connection)).toEqual(MIGRATIONS.map((m) => m.version));
  });

  it('refuses a catalog written by a newer schema', async () => {
    const newer: Migration[] = [...MIGRATIONS, { version: NEXT, name: 'future', sql: 'SELECT 1' }];
    await migrate(connection, 'test', newer);
    await expect(migrate(connection, 'cat.duckdb')).rejects.toMatchObject({
      code: 'catalog-error',
      message: expect.stringContaining(`cat.duckdb has schema version ${NEXT}`),
    });
  });

  it('refuses a misnumbered migration list before touching the database', async () => {
    await expect(migrate(connection, 'test', [{ version: 2, name: 'x', sql: 'SELECT 1' }])).rejects.toMatchObject({
      code: 'catalog-error',
    });
    expect(await tables(connection)).toEqual([]);
  });
});

describe('opening a catalog made by an older repocod-kit', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    ({ dir, cleanup } = await makeTempDir());
  });
  afterEach(() => cleanup());

  /** Makes a catalog file the way a build that knew only the first `known` migrations left it. */
  async function olderCatalog(
    path: string,
    known: number,
    fill?: (connection: DuckDBConnection) => Promise<void>,
  ): Promise<void> {
    const instance = await DuckDBInstance.create(path);
    const connection = await instance.connect();
    try {
      if (known > 0) await migrate(connection, path, MIGRATIONS.slice(0, known));
      await fill?.(connection);
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
  }

  it('applies the later migrations to a version-1 catalog and keeps its data', async () => {
    const path = join(dir, 'v1.duckdb');
    const extraction = okExtraction('pkg/a.py', 4);
    await olderCatalog(path, 1, async (connection) => {
      await connection.run("INSERT INTO repositories VALUES ('r', '/src/r', now()::TIMESTAMP)");
      const files = await connection.createAppender('files');
      appendFile(files, 'r', extraction, new Date());
      files.closeSync();
      const functions = await connection.createAppender('functions');
      for (const fn of extraction.functions) appendFunction(functions, 'r', extraction.contentHash, fn);
      functions.closeSync();
    });

    const catalog = await openCatalog(path);
    try {
      expect((await catalog.query('SELECT version, name FROM schema_migrations ORDER BY version')).rows).toEqual([
        [1, 'repositories, files and functions'],
        [2, 'runs and test results'],
        [3, 'mining: baseline, coverage map and relevant tests'],
        [4, 'tasks and selections'],
        [5, 'validations'],
        [6, 'validations: tests passing without the body, how the gold check was answered'],
        [7, 'stage times'],
        [8, 'evaluations'],
        [9, 'context-level modes'],
        [10, 'reference task lists'],
        [11, 'instance ids relative to the package root'],
        [12, 'when each function body last changed'],
        [13, 'what the jobs of each phase cost'],
      ]);
      expect((await catalog.repositories()).map((r) => r.name)).toEqual(['r']);
      expect(await catalog.knownFiles('r')).toEqual(
        new Map([['pkg/a.py', { contentHash: 'hash-of-pkg/a.py', extractorFingerprint: 'extractor-v1' }]]),
      );
      expect((await catalog.functions('r')).map(({ repository, functionId, contentHash, ...fn }) => fn)).toEqual(
        extraction.functions,
      );

      const results = syntheticResults(10);
      await catalog.recordRun(syntheticRun('job', 1), results);
      expect(await catalog.runsForJob('job')).toEqual([{ ...syntheticRun('job', 1), results: byNodeId(results) }]);
    } finally {
      await catalog.close();
    }
  });

  it('refuses no older catalog: an empty file and every earlier version open at the latest version', async () => {
    for (let known = 0; known < LATEST; known++) {
      const path = join(dir, `v${known}.duckdb`);
      await olderCatalog(path, known);
      const catalog = await openCatalog(path);
      try {
        expect((await catalog.query('SELECT version FROM schema_migrations ORDER BY version')).rows).toEqual(
          MIGRATIONS.map((m) => [m.version]),
        );
      } finally {
        await catalog.close();
      }
    }
  }, 60_000);

  it('is refused, with a way out, by a build that knows only migration 1, and left as it was', async () => {
    const path = join(dir, 'v2.duckdb');
    const catalog = await openCatalog(path);
    await catalog.recordRun(syntheticRun('job', 1), syntheticResults(3));
    await catalog.close();

    const instance = await DuckDBInstance.create(path);
    const connection = await instance.connect();
    try {
      await expect(migrate(connection, path, MIGRATIONS.slice(0, 1))).rejects.toMatchObject({
        code: 'catalog-error',
        message:
          `${path} has schema version ${LATEST} but this repocod-kit knows only up to 1; it was written by a ` +
          `newer version: upgrade repocod-kit or choose another catalog path`,
      });
    } finally {
      connection.closeSync();
      instance.closeSync();
    }

    const again = await openCatalog(path);
    try {
      expect(await again.runsForJob('job')).toHaveLength(1);
    } finally {
      await again.close();
    }
  });
});
