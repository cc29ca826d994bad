import type { PhaseCost } from '@repocod/pipeline';
import { costTable } from '@repocod/pipeline';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from './main.js';
import { demoFixture } from './testing/demo-fixture.js';
import { bufferIO, makeTempDir } from './testing/test-support.js';

/** The demo's cold flow (the fixture every test of this package reads), as its cost ledger counted it. */
describe('the cost of a cold flow on the demo', () => {
  const { cost } = demoFixture();
  const phase = (name: string): PhaseCost | undefined => cost?.phases.find((row) => row.phase === name);

  it('counts every phase of a cold build, in machine-independent units beside the seconds', () => {
    if (cost === null) return expect.fail('the fixture was reused (REPOCOD_TUI_FIXTURE): it ran nothing to count');
    const suite = cost.suiteTests.demo as number;
    expect(suite).toBeGreaterThan(250);
    // The baseline: the suite traced once, then run k - 1 = 2 times more, as one job of two processes per shard.
    const traced = phase('traced') as PhaseCost;
    const baseline = phase('baseline') as PhaseCost;
    expect(traced.testExecutions).toBe(suite);
    expect(baseline.testExecutions).toBe(2 * suite);
    expect(baseline.processes).toBe(2 * baseline.jobs);
    expect(traced.stage).toBe('mine');
    // Mutations, the tasks' collections, and validation's runs without the body and with the gold patches.
    for (const name of ['mutation', 'collect', 'without-body', 'gold']) {
      const row = phase(name);
      expect(row, name).toBeDefined();
      expect(row?.jobs, name).toBeGreaterThan(0);
      expect(row?.busySeconds, name).toBeGreaterThan(0);
    }
    expect((phase('gold') as PhaseCost).stage).toBe('validate');
    expect((phase('collect') as PhaseCost).testExecutions).toBe(0);
    expect(cost.phases.every((row) => row.repository === 'demo')).toBe(true);
  });

  it('prints them as a table with whole-suite equivalents and a total', () => {
    if (cost === null) return expect.fail('the fixture was reused (REPOCOD_TUI_FIXTURE): it ran nothing to count');
    const lines = costTable(cost);
    expect(lines[0]).toBe(`cost of demo: the jobs run now, whole suite = ${cost.suiteTests.demo} tests`);
    expect(lines[1]).toMatch(/^ {2}phase +jobs +processes +test executions +whole suites +busy s$/);
    expect(lines.find((line) => line.includes('traced run'))).toMatch(/ 1\.00 +\d+\.\d$/);
    expect(lines.find((line) => line.includes('baseline runs'))).toMatch(/ 2\.00 +\d+\.\d$/);
    const total = cost.phases.reduce((sum, row) => sum + row.testExecutions, 0);
    expect(lines.at(-1)).toContain(` ${total.toLocaleString('en-US')} `);
    expect(lines.at(-1)).toMatch(/^ {2}total /);
  });

  it('is kept in the catalog job by job: `repocod cost` reads it back, and names a missing catalog', async () => {
    if (cost === null) return expect.fail('the fixture was reused (REPOCOD_TUI_FIXTURE): it ran nothing to count');
    const temp = makeTempDir();
    try {
      const db = join(temp.dir, 'catalog.duckdb');
      copyFileSync(demoFixture().catalogPath, db);
      const io = bufferIO();
      expect(await main(['cost', '--repo', 'demo', '--db', db], io), io.stderr()).toBe(0);
      // One cold run made the catalog, so what it kept is what the flow counted.
      expect(io.stdout().trimEnd().split('\n')).toEqual(costTable(cost, 'every job the catalog has run'));
      const json = bufferIO();
      expect(await main(['cost', '--json', '--db', db], json)).toBe(0);
      expect(JSON.parse(json.stdout())).toEqual(cost);
      const none = bufferIO();
      expect(await main(['cost', '--repo', 'nobody', '--db', db], none)).toBe(0);
      expect(none.stdout()).toContain('no job cost is kept');
      const missing = bufferIO();
      expect(await main(['cost', '--db', join(temp.dir, 'absent.duckdb')], missing)).toBe(1);
      expect(missing.stderr()).toContain('absent.duckdb: no catalog there');
    } finally {
      temp.cleanup();
    }
  });
});
