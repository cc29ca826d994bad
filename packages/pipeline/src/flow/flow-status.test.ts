import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openMinedDemo } from '../testing/mined-demo.js';

const stateRoot = mkdtempSync(join(tmpdir(), 'repocod-flow-status-'));
afterAll(() => rmSync(stateRoot, { recursive: true, force: true }));

describe("the flow status's counts", () => {
  it('counts each repository from the stores, as the tables hold them, with no SQL built by the caller', async () => {
    const catalog = await openMinedDemo(stateRoot);
    try {
      const [demo] = await catalog.repositoryCounts();
      const number = async (sql: string): Promise<number> => Number((await catalog.query(sql)).rows[0]?.[0]);
      expect(demo).toEqual({
        repository: 'demo',
        functions: await number("SELECT count(*) FROM functions WHERE repository = 'demo'"),
        candidates: await number("SELECT count(*) FROM functions WHERE repository = 'demo' AND is_candidate"),
        mined: await number("SELECT count(DISTINCT function_id) FROM relevant_tests WHERE repository = 'demo'"),
        withTests: await number(
          "SELECT count(DISTINCT function_id) FROM relevant_tests WHERE repository = 'demo' AND status = 'tests'",
        ),
        tasks: await number("SELECT count(*) FROM tasks WHERE repository = 'demo'"),
      });
      expect(demo?.candidates).toBeGreaterThan(50);
      expect(demo?.mined).toBe(demo?.candidates);
      // A run's log by its id, as parameters: a quote in the id is a run that is not there, not SQL.
      const [run] = await catalog.runs({ repository: 'demo' });
      expect(await catalog.runLog(run?.runId ?? '')).toContain('passed');
      expect(await catalog.runLog("x' OR '1'='1")).toBeNull();
    } finally {
      await catalog.close();
    }
  });
});
