import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Catalog, openCatalog } from './catalog.js';
import type { TestResultRecord } from './runs-table.js';
import { makeTempDir, syntheticResults, syntheticRun } from './testing/test-support.js';

/**
 * Recording a run again inside a catalog of the real size: the main catalog held 2,043 runs and 260,176
 * test results when DuckDB's key check first failed a re-record ("duplicate key" on test_results), which
 * small tables never showed. Here 20 whole-suite runs of 13,000 results (260,000 rows) are recorded, one is
 * recorded again with other outcomes, some ids gone and some new, and every row is read back; then a child
 * process re-records another run over and over and is killed with SIGKILL, and the catalog must hold every
 * run whole, each either as it was or as one of the child's versions, never a mix, never a row lost.
 */
const RUNS = 20;
const PER_RUN = 13_000;

let catalog: Catalog;
let path: string;
let cleanup: () => Promise<void>;
/** What the catalog must hold: run id → node id → the row as recorded. */
const expected = new Map<string, Map<string, TestResultRecord>>();

const runId = (index: number): string => `shard-${String(index).padStart(2, '0')}#1`;
const shardResults = (index: number): TestResultRecord[] => syntheticResults(PER_RUN, `sympy/t${index}.py::test`);

beforeAll(async () => {
  let dir: string;
  ({ dir, cleanup } = await makeTempDir());
  path = join(dir, 'catalog.duckdb');
  catalog = await openCatalog(path);
  for (let index = 0; index < RUNS; index++) {
    const results = shardResults(index);
    await catalog.recordRun(syntheticRun(`shard-${String(index).padStart(2, '0')}`, 1), results);
    expected.set(runId(index), new Map(results.map((result) => [result.nodeId, result])));
  }
}, 600_000);

afterAll(async () => {
  await catalog.close();
  await cleanup();
});

/** Every row of test_results, by run and node id. */
async function allRows(): Promise<Map<string, Map<string, TestResultRecord>>> {
  const result = await catalog.query(
    'SELECT run_id, node_id, outcome, duration_seconds, message FROM test_results ORDER BY run_id, node_id',
  );
  const rows = new Map<string, Map<string, TestResultRecord>>();
  for (const [run, nodeId, outcome, duration, message] of result.rows) {
    const ofRun = rows.get(String(run)) ?? new Map<string, TestResultRecord>();
    ofRun.set(String(nodeId), {
      nodeId: String(nodeId),
      outcome: String(outcome) as TestResultRecord['outcome'],
      durationSeconds: Number(duration),
      message: message === null ? null : String(message),
    });
    rows.set(String(run), ofRun);
  }
  return rows;
}

function expectSameRows(actual: Map<string, Map<string, TestResultRecord>>): void {
  expect([...actual.keys()]).toEqual([...expected.keys()].sort());
  for (const [run, rows] of expected) {
    const stored = actual.get(run);
    expect(stored?.size, run).toBe(rows.size);
    for (const [nodeId, row] of rows) expect(stored?.get(nodeId), `${run} ${nodeId}`).toEqual(row);
  }
}

describe('re-recording a run in a catalog of the real size (260,000 test results)', () => {
  it('replaces the run in place: other outcomes, ids gone and new, every row read back', {
    timeout: 600_000,
  }, async () => {
    expect((await catalog.query('SELECT count(*) FROM test_results')).rows[0]?.[0]).toBe(RUNS * PER_RUN);
    const kept = shardResults(7)
      .slice(500)
      .map((result) => ({ ...result, outcome: 'failed' as const, message: 'E   re-recorded' }));
    const added = syntheticResults(500, 'sympy/t7_new.py::test');
    const again = [...kept, ...added];
    await catalog.recordRun(syntheticRun('shard-07', 1, { status: 'crashed', exitCode: -9 }), again);
    expected.set(runId(7), new Map(again.map((result) => [result.nodeId, result])));
    expectSameRows(await allRows());
    const [run] = await catalog.runsForJob('shard-07');
    expect(run).toMatchObject({ status: 'crashed', exitCode: -9 });
    expect(run?.results).toHaveLength(PER_RUN);
  });

  it('loses nothing when the process re-recording a run is killed in the middle', { timeout: 600_000 }, async () => {
    await catalog.close();
    // The child loads the built package: it records run shard-03 again and again, version after version.
    // The run and its results come through a file, since the test support (src/testing) is not built.
    const recording = join(dirname(path), 'shard-03.json');
    writeFileSync(
      recording,
      JSON.stringify({ run: syntheticRun('shard-03', 1), results: syntheticResults(PER_RUN, 'sympy/t3.py::test') }),
    );
    const script = `
      const { readFileSync } = await import('node:fs');
      const { openCatalog } = await import(${JSON.stringify(new URL('../dist/catalog.js', import.meta.url).href)});
      const { run, results } = JSON.parse(readFileSync(${JSON.stringify(recording)}, 'utf8'),
        (key, value) => (key === 'startedAt' || key === 'finishedAt' ? new Date(value) : value));
      const catalog = await openCatalog(${JSON.stringify(path)});
      for (let version = 1; ; version++) {
        process.stdout.write('recording ' + version + '\\n');
        await catalog.recordRun(run, results.map((result) => ({ ...result, message: 'version ' + version })));
      }`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    let errors = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      errors += chunk.toString();
    });
    // Killed while it records its third version (at the latest), whatever it is doing then.
    await new Promise<void>((resolve, reject) => {
      const timer = setInterval(() => {
        if (output.includes('recording 3')) {
          clearInterval(timer);
          child.kill('SIGKILL');
          resolve();
        }
        if (child.exitCode !== null) {
          clearInterval(timer);
          reject(new Error(`the child ended before it was killed: ${errors}`));
        }
      }, 5);
    });
    await new Promise((resolve) => child.once('exit', resolve));
    catalog = await openCatalog(path);
    const rows = await allRows();
    const shard = rows.get(runId(3));
    expect(shard?.size).toBe(PER_RUN);
    // Whole, and one version: the first or second the child committed, or the third if its commit landed.
    const versions = new Set([...(shard?.values() ?? [])].map((row) => row.message ?? 'original'));
    expect(versions.size, [...versions].join(', ')).toBe(1);
    expect(['version 1', 'version 2', 'version 3']).toContain([...versions][0]);
    const version = [...versions][0] ?? '';
    expected.set(runId(3), new Map(shardResults(3).map((result) => [result.nodeId, { ...result, message: version }])));
    expectSameRows(rows);
    expect((await catalog.query('SELECT count(*) FROM test_results')).rows[0]?.[0]).toBe(RUNS * PER_RUN);
  });
});
