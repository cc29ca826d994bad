import { copyFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from './main.js';
import { bufferIO, makeTempDir } from './testing/test-support.js';
import { demoFixture } from './testing/demo-fixture.js';

const savedState = process.env.REPOCOD_STATE;
const temp = makeTempDir();
const source = join(temp.dir, 'source.duckdb');
const fresh = join(temp.dir, 'fresh.duckdb');
const folder = join(temp.dir, 'checkpoints');

async function repocod(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const io = bufferIO();
  const code = await main(argv, io);
  return { code, stdout: io.stdout(), stderr: io.stderr() };
}

async function count(db: string, sql: string): Promise<string> {
  const run = await repocod('sql', sql, '--db', db);
  expect(run.code, run.stderr).toBe(0);
  return run.stdout;
}

beforeAll(() => {
  process.env.REPOCOD_STATE = join(temp.dir, 'state');
  // The catalog of the demo's whole flow (prepare … validate), made once for the package's tests.
  copyFileSync(demoFixture().catalogPath, source);
});

afterAll(() => {
  if (savedState === undefined) delete process.env.REPOCOD_STATE;
  else process.env.REPOCOD_STATE = savedState;
  temp.cleanup();
}, 120_000);

/**
 * The machine a rebuild ran on is gone: its checkpoint, restored into an empty catalog on another,
 * lets the whole flow finish without running a test again.
 */
describe('repocod checkpoint on the demo', () => {
  it('saves the mined and validated demo, and a flow on the restored catalog runs no job again', {
    timeout: 600_000,
  }, async () => {
    const saved = await repocod('checkpoint', 'save', 'demo', '--dir', folder, '--db', source);
    expect(saved.code, saved.stderr).toBe(0);
    expect(saved.stdout).toMatch(/^demo → .*demo: runs \d+, test_results \d+, mining_baseline \d+, /);
    expect(readdirSync(join(folder, 'demo')).sort()).toEqual(
      [
        'checkpoint.json',
        'job_costs',
        ...['mining_baseline', 'mining_coverage', 'relevant_tests', 'runs', 'stage_times', 'test_results'],
        'validations',
      ].map((name) => (name === 'checkpoint.json' ? name : `${name}.parquet`)),
    );

    const restored = await repocod('checkpoint', 'restore', 'demo', '--dir', folder, '--db', fresh);
    expect(restored.code, restored.stderr).toBe(0);
    expect(restored.stdout).toMatch(/ → demo: runs (\d+) of \1, test_results (\d+) of \2, .* row\(s\) added\n$/);
    const runs = 'SELECT count(*) AS runs FROM runs';
    const mined = "SELECT count(*) AS mined FROM relevant_tests WHERE repository = 'demo'";
    const runsBefore = await count(fresh, runs);
    const minedBefore = await count(fresh, mined);
    expect(await count(fresh, runs)).toBe(await count(source, runs));

    const flow = await repocod('curate', '--yes', '--repo', 'demo', '--db', fresh, '--out', join(temp.dir, 'release'));
    expect(flow.code, `${flow.stdout}\n${flow.stderr}`).toBe(0);
    // Every job (baseline shards, the tasks' collect runs, validation) found its runs: none was recorded again.
    expect(await count(fresh, runs)).toBe(runsBefore);
    expect(await count(fresh, mined)).toBe(minedBefore);
    // The cost ledger agrees: the flow handed no job to the runner, so the costs are the source's, restored whole.
    const costs = 'SELECT stage, phase, jobs, processes, test_executions FROM job_costs ORDER BY ALL';
    expect(await count(source, costs)).toMatch(/mine +\| baseline/);
    expect(await count(fresh, costs)).toBe(await count(source, costs));
    const verdicts = 'SELECT status, count(*) AS n FROM validations GROUP BY ALL ORDER BY ALL';
    expect(await count(fresh, verdicts)).toBe(await count(source, verdicts));

    const again = await repocod('checkpoint', 'restore', 'demo', '--dir', folder, '--db', fresh);
    expect(again.stdout).toMatch(/: runs 0 of \d+, test_results 0 of \d+, mining_baseline 0 of/);
  });

  it('names the usage and a missing checkpoint', async () => {
    expect((await repocod('checkpoint', 'demo')).code).toBe(2);
    const missing = await repocod('checkpoint', 'restore', 'flask', '--dir', folder, '--db', fresh);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/flask[/\\]checkpoint\.json: no checkpoint there .*repocod checkpoint save flask/);
  });
});
