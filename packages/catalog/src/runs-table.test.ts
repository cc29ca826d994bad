import { DuckDBTimestampValue } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import {
  appendRun,
  appendTestResult,
  RUN_COLUMNS,
  RUN_STATUSES,
  runFromRow,
  runProblem,
  TEST_OUTCOMES,
  TEST_RESULT_COLUMNS,
  testResultFromRow,
} from './runs-table.js';
import { syntheticResults, syntheticRun, useMigratedDatabase } from './testing/test-support.js';

describe('runs and test_results tables', () => {
  const connection = useMigratedDatabase();

  async function columns(table: string): Promise<unknown[]> {
    const reader = await connection().runAndReadAll(
      `SELECT column_name FROM duckdb_columns() WHERE table_name = '${table}' ORDER BY column_index`,
    );
    return reader.getRows().map((row) => row[0]);
  }

  it('are written in the column order the migration created', async () => {
    expect(await columns('runs')).toEqual([...RUN_COLUMNS]);
    expect(await columns('test_results')).toEqual([...TEST_RESULT_COLUMNS]);
  });

  it('read back what the appenders wrote, nulls included', async () => {
    const runs = [
      syntheticRun('job', 1),
      syntheticRun('job', 2, { status: 'timeout', exitCode: null, worker: null, log: '' }),
    ];
    const results = syntheticResults(7);
    const runAppender = await connection().createAppender('runs');
    for (const run of runs) appendRun(runAppender, run);
    runAppender.closeSync();
    const resultAppender = await connection().createAppender('test_results');
    for (const result of results) appendTestResult(resultAppender, 'job#1', result);
    resultAppender.closeSync();

    const runRows = (await connection().runAndReadAll('SELECT * FROM runs ORDER BY attempt')).getRowObjects();
    expect(runRows.map(runFromRow)).toEqual(runs);
    const resultRows = (
      await connection().runAndReadAll('SELECT * FROM test_results ORDER BY node_id DESC')
    ).getRowObjects();
    expect(resultRows.map(testResultFromRow)).toEqual(results);
    expect(resultRows.every((row) => row.run_id === 'job#1')).toBe(true);
  });

  it('refuse an unknown status or outcome at the database', async () => {
    await expect(
      connection().run("INSERT INTO runs (run_id, job_hash, repository, status) VALUES ('r', 'j', 'repo', 'flaky')"),
    ).rejects.toThrow(/CHECK constraint/);
    await expect(connection().run("INSERT INTO test_results VALUES ('r', 'n', 'passed-ish', 0, NULL)")).rejects.toThrow(
      /CHECK constraint/,
    );
    for (const status of RUN_STATUSES) {
      await connection().run('INSERT INTO runs (run_id, job_hash, repository, status) VALUES ($1, $2, $3, $4)', [
        status,
        'j',
        'repo',
        status,
      ]);
    }
    for (const outcome of TEST_OUTCOMES) {
      await connection().run("INSERT INTO test_results VALUES ('r', $1, $1, 0, NULL)", [outcome]);
    }
  });

  it('refuse a repeated node id within one run, and allow it across runs', async () => {
    await connection().run("INSERT INTO test_results VALUES ('r1', 'a.py::t', 'passed', 0, NULL)");
    await connection().run("INSERT INTO test_results VALUES ('r2', 'a.py::t', 'failed', 0, 'boom')");
    await expect(
      connection().run("INSERT INTO test_results VALUES ('r1', 'a.py::t', 'failed', 0, NULL)"),
    ).rejects.toThrow(/primary key/i);
  });
});

describe('reading run rows', () => {
  it('reports a value outside the vocabulary as a catalog error naming the column', () => {
    expect(() => testResultFromRow({ node_id: 'n', outcome: 'weird', duration_seconds: 0, message: null })).toThrow(
      expect.objectContaining({
        code: 'catalog-error',
        message: 'catalog column "outcome" holds unknown test outcome "weird"',
      }),
    );
  });

  it('reads a hand-written NULL in a nullable text column as empty text', () => {
    const started = new DuckDBTimestampValue(1_700_000_000_000_000n);
    const run = runFromRow({
      run_id: 'r',
      job_hash: 'j',
      repository: 'repo',
      base_commit: null,
      environment_key: null,
      recipe_hash: null,
      patches_hash: null,
      tests_hash: null,
      attempt: 1,
      status: 'ok',
      exit_code: null,
      duration_seconds: 0,
      network: null,
      worker: null,
      log: null,
      started_at: started,
      finished_at: started,
    });
    expect(run).toMatchObject({ baseCommit: '', network: '', log: '', exitCode: null, worker: null });
  });
});

describe('runProblem', () => {
  const run = syntheticRun('job', 1);

  it('accepts a well-formed run, with or without results', () => {
    expect(runProblem(run, syntheticResults(10))).toBeNull();
    expect(runProblem({ ...run, exitCode: null, worker: null, durationSeconds: 0 }, [])).toBeNull();
  });

  it('names the first field the catalog would store wrongly', () => {
    expect(runProblem({ ...run, runId: '' }, [])).toBe('runId is empty');
    expect(runProblem({ ...run, jobHash: '' }, [])).toBe('jobHash is empty');
    expect(runProblem({ ...run, attempt: 0 }, [])).toBe('attempt is 0, expected a whole number from 1');
    expect(runProblem({ ...run, attempt: 1.5 }, [])).toMatch(/^attempt is 1.5/);
    expect(runProblem({ ...run, exitCode: 2 ** 31 }, [])).toMatch(/^exitCode is 2147483648/);
    expect(runProblem({ ...run, worker: -0.5 }, [])).toMatch(/^worker is -0.5/);
    expect(runProblem({ ...run, durationSeconds: Number.NaN }, [])).toMatch(/^durationSeconds is NaN/);
    expect(runProblem({ ...run, durationSeconds: -1 }, [])).toMatch(/^durationSeconds is -1/);
    expect(runProblem({ ...run, startedAt: new Date('not a date') }, [])).toBe('startedAt is not a valid date');
    expect(runProblem({ ...run, finishedAt: new Date(Number.NaN) }, [])).toBe('finishedAt is not a valid date');
    expect(runProblem(run, [{ nodeId: 'a.py::t', outcome: 'passed', durationSeconds: Infinity, message: null }])).toBe(
      'a.py::t: durationSeconds is Infinity, expected a finite number ≥ 0',
    );
    expect(runProblem(run, [{ nodeId: '', outcome: 'passed', durationSeconds: 0, message: null }])).toBe(
      'a test result has an empty node id',
    );
  });
});
