import { copyFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from './main.js';
import { bufferIO, makeTempDir } from './testing/test-support.js';
import { demoFixture } from './testing/demo-fixture.js';

const temp = makeTempDir();
afterAll(() => temp.cleanup(), 60_000);

async function report(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const io = bufferIO();
  const code = await main(['report', ...args], io);
  return { code, stdout: io.stdout(), stderr: io.stderr() };
}

/** `repocod report` on the catalog and the release the demo's whole flow made (the screens' fixture). */
describe('repocod report on the demo', () => {
  const db = join(temp.dir, 'catalog.duckdb');
  copyFileSync(demoFixture().catalogPath, db);

  it("compares the catalog's tasks with the full benchmark and its selection with Lite", {
    timeout: 60_000,
  }, async () => {
    const markdown = join(temp.dir, 'report.md');
    const html = join(temp.dir, 'report.html');
    const run = await report('--db', db, '--markdown', markdown, '--html', html);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^# Fidelity to REPOCOD\n/);
    expect(run.stdout).toMatch(/### All 52 tasks that pass their checks, against REPOCOD \(980 tasks, the ACL/);
    expect(run.stdout).toMatch(/### Selection [0-9a-f]{16} \(\d+ tasks\), against REPOCOD-Lite \(200 tasks\)/);
    // The demo is not one of REPOCOD's repositories; REPOCOD's eleven are listed with none of ours.
    expect(run.stdout).toMatch(/^- demo: 52 tasks \(not a REPOCOD repository\)$/m);
    expect(run.stdout).toMatch(/^\| flask \| all \| 0 \/ 43 \(−43\) \| – \/ 270\.0 \|/m);
    expect(run.stdout).toMatch(/^\| 0–65 \| \d+ \(\d+\.\d%\) \| 201 \(20\.5%\) \|$/m);
    expect(readFileSync(markdown, 'utf8')).toBe(run.stdout);
    expect(readFileSync(html, 'utf8')).toMatch(/<li>demo: 52 tasks \(not a REPOCOD repository\)<\/li>/);
  });

  it('measures the candidate modes on the catalog, and names a repository it does not know', {
    timeout: 60_000,
  }, async () => {
    const run = await report('--candidate-modes', '--db', db, '--records', temp.dir);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^# Candidate modes against REPOCOD's task counts\n/);
    expect(run.stdout).toContain('| repository | REPOCOD | docstring | docstring-code2 | called | called-code2 |');
    // The demo was mined whole: its docstring cell is exact, 52 tasks; it has no REPOCOD count.
    expect(run.stdout).toMatch(/^\| demo \| – \| 52 \(\d+\) \| \d+ \(\d+\) \| \d+ \(\d+\) \| \d+ \(\d+\) \|$/m);
    const unknown = await report('--candidate-modes', '--repo', 'nope', '--db', db);
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toMatch(/--repo nope: not in the catalog .* \(it knows demo\)/);
    const mixed = await report('--candidate-modes', '--selection', 'x', '--db', db);
    expect(mixed.stderr).toMatch(/--selection does not go with --candidate-modes/);
  });

  it('measures the level modes on the demo from its source, and writes them as JSON', { timeout: 60_000 }, async () => {
    const json = join(temp.dir, 'levels.json');
    const run = await report('--level-modes', '--db', db, '--json-file', json);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^# Context-level modes against REPOCOD's labellings\n/);
    // Not a REPOCOD repository: its mix under each mode, no distance, and no average.
    expect(run.stdout).toContain(
      '| demo (52 tasks; all 52 candidates mined) | repocod-v1 | 35 (67%) | 10 (19%) | 7 (13%) | – | – |',
    );
    expect(run.stdout).toContain('|  | repocod-v4 | 26 (50%) | 11 (21%) | 15 (29%) | – | – |');
    expect(run.stdout).toContain('|  | deps | 26 (50%) | 10 (19%) | 16 (31%) | – | – |');
    expect(run.stdout).toContain('| repocod-v1 | – | – |');
    const written = JSON.parse(readFileSync(json, 'utf8')) as { rows: { repository: string; complete: boolean }[] };
    expect(written.rows.map((row) => [row.repository, row.complete])).toEqual([['demo', true]]);
    const mixed = await report('--level-modes', '--against', 'lite', '--db', db);
    expect(mixed.stderr).toMatch(/--against does not go with --level-modes/);
  });

  it('compares a release folder with the table --against names', { timeout: 60_000 }, async () => {
    const release = join(temp.dir, 'release');
    const io = bufferIO();
    expect(await main(['publish', '--version', '1.0', '--out', release, '--db', db], io), io.stderr()).toBe(0);
    const run = await report('--release', release, '--against', 'full-v1', '--db', db);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(
      /### Release 1\.0 \(\d+ tasks\), against REPOCOD \(980 tasks, the first version's levels\)/,
    );
  });

  it('refuses two subjects, an unknown table and a release folder that is not one', async () => {
    const both = await report('--selection', 'x', '--release', temp.dir, '--db', db);
    expect([both.code, both.stderr]).toEqual([2, expect.stringMatching(/choose one/)]);
    const table = await report('--against', 'full-v9', '--db', db);
    expect([table.code, table.stderr]).toEqual([
      2,
      expect.stringMatching(/--against full-v9: one of full, full-v1, lite/),
    ]);
    const missing = await report('--release', join(temp.dir, 'nowhere'), '--db', db);
    expect([missing.code, missing.stderr]).toEqual([1, expect.stringMatching(/nowhere: no such release folder/)]);
    expect(existsSync(join(temp.dir, 'nowhere'))).toBe(false);
  });
});
