import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import type { ReleaseRow } from './release-table.js';
import { releaseParquet, releaseTable } from './release-table.js';

const ROWS: ReleaseRow[] = [
  {
    instance_id: 'pallets__flask-flask.app.Flask.make_response',
    version: '1.0',
    gold_patches: {
      code: 'diff --git a/src/flask/app.py b/src/flask/app.py\n+    return rv\n',
      test: 'diff --git a/tests/test_basic.py …\r\n',
    },
    pre_patches: { code: '-    return rv\n', test: '' },
    repo: 'pallets/flask',
    base_commit: '2fec0b206c6e83ea813ab26597e15c96fab08be7',
    base_commit_timestamp: '2024-09-01T12:00:00+00:00',
    problem_statement: { code: 'Complete the body of `Flask.make_response` — ünïcode kept.', test: 'Write tests.' },
    environment_setup_commit: '2fec0b206c6e83ea813ab26597e15c96fab08be7',
    FAIL_TO_PASS: ['tests/test_basic.py::test_make_response', 'tests/test_basic.py::test_x[a-b]'],
  },
  {
    instance_id: 'demo-inventory.util.slugify',
    version: '1.0',
    gold_patches: { code: 'g', test: 't' },
    pre_patches: { code: 'p', test: 'q' },
    repo: 'demo',
    base_commit: 'b06a369e03717b736e6ff8e7a308c6d4633e4835',
    base_commit_timestamp: '2024-01-01T00:00:00+00:00',
    problem_statement: { code: 'c', test: 'd' },
    environment_setup_commit: 'b06a369e03717b736e6ff8e7a308c6d4633e4835',
    FAIL_TO_PASS: [],
  },
];

describe('releaseParquet', () => {
  it('writes ZSTD Parquet that DuckDB reads back with the same rows and values', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'repocod-parquet-')), 'test-00000-of-00001.parquet');
    writeFileSync(file, releaseParquet(releaseTable(ROWS)));
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    try {
      const reader = await connection.runAndReadAll(
        `SELECT instance_id, version, gold_patches.code AS gold_code, gold_patches.test AS gold_test, test_patch, ` +
          `pre_patches.code AS pre_code,
                pre_patches.test AS pre_test, pre_scripts, repo, base_commit, base_commit_timestamp, hints_text, ` +
          `created_at,
                problem_statement.code AS problem_code, problem_statement.test AS problem_test, ` +
          `environment_setup_commit,
                to_json(evaluation.FAIL_TO_PASS)::VARCHAR AS f2p, evaluation.PASS_TO_PASS AS p2p
           FROM read_parquet('${file}')`,
      );
      const rows = reader.getRowObjects();
      expect(rows).toHaveLength(2);
      for (const [index, row] of rows.entries()) {
        const expected = ROWS[index] as ReleaseRow;
        expect(row).toEqual({
          instance_id: expected.instance_id,
          version: expected.version,
          gold_code: expected.gold_patches.code,
          gold_test: expected.gold_patches.test,
          test_patch: null,
          pre_code: expected.pre_patches.code,
          pre_test: expected.pre_patches.test,
          pre_scripts: null,
          repo: expected.repo,
          base_commit: expected.base_commit,
          base_commit_timestamp: expected.base_commit_timestamp,
          hints_text: null,
          created_at: null,
          problem_code: expected.problem_statement.code,
          problem_test: expected.problem_statement.test,
          environment_setup_commit: expected.environment_setup_commit,
          f2p: JSON.stringify(expected.FAIL_TO_PASS),
          p2p: null,
        });
      }
      const codec = await connection.runAndReadAll(`SELECT DISTINCT compression FROM parquet_metadata('${file}')`);
      expect(codec.getRows().map((row) => row[0])).toEqual(['ZSTD']);
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
  });
});
