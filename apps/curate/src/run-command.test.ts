import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from './main.js';
import { bufferIO, makeTempDir } from './testing/test-support.js';

/** `repocod env` and `repocod run` on the bundled demo: real checkout, real venv, real pytest. */
describe('repocod env and run on the demo', () => {
  it('makes the environment, then runs listed tests with a missing one reported', { timeout: 300_000 }, async () => {
    const env = bufferIO();
    expect(await main(['env', 'demo'], env), env.stderr()).toBe(0);
    expect(env.stdout()).toMatch(/^demo at [0-9a-f]{40} /);
    expect(env.stdout()).toMatch(/python 3\.11\.\d+, (pip|uv), (built|reused)/);

    const folder = makeTempDir().dir;
    const ids = join(folder, 'ids.txt');
    writeFileSync(
      ids,
      'tests/test_util.py::test_slugify_custom_separator\n# a comment\ntests/test_util.py::test_not_there\n',
    );
    const db = join(folder, 'catalog.duckdb');
    const run = bufferIO();
    expect(await main(['run', 'demo', '--tests', ids, '--workers', '2', '--db', db], run)).toBe(0);
    expect(run.stdout()).toContain('tests      2: 1 passed, 1 missing');
    expect(run.stdout()).not.toContain('answered from the catalog');
    // The same job again is answered from the catalog, with the same results; --fresh runs it.
    const again = bufferIO();
    expect(await main(['run', 'demo', '--tests', ids, '--workers', '2', '--db', db], again)).toBe(0);
    expect(again.stdout()).toContain('1 answered from the catalog');
    expect(again.stdout()).toContain('tests      2: 1 passed, 1 missing');
    const fresh = bufferIO();
    expect(await main(['run', 'demo', '--tests', ids, '--db', db, '--fresh'], fresh)).toBe(0);
    expect(fresh.stdout()).not.toContain('answered from the catalog');
    const stored = bufferIO();
    expect(await main(['sql', 'select count(*) as runs from runs', '--db', db], stored)).toBe(0);
    expect(stored.stdout()).toMatch(/runs\n-+\n\s+1\n/);
  });

  it('runs the whole suite in shards with progress lines, a hung test failing alone', {
    timeout: 300_000,
  }, async () => {
    const folder = makeTempDir().dir;
    const patch = join(folder, 'hang.diff');
    const hang = ['import time', '', 'def test_hangs():', '    time.sleep(600)'];
    writeFileSync(
      patch,
      [
        '--- /dev/null',
        '+++ b/tests/test_zz_hang.py',
        `@@ -0,0 +1,${hang.length} @@`,
        ...hang.map((line) => `+${line}`),
        '',
      ].join('\n'),
    );
    const run = { ...bufferIO(), progressIntervalMs: 50 };
    const args = [
      'run',
      'demo',
      '--all',
      '--patch',
      patch,
      '--timeout',
      '5',
      '--workers',
      '2',
      '--db',
      join(folder, 'catalog.duckdb'),
    ];
    expect(await main(args, run), run.stderr()).toBe(0);
    expect(run.stderr()).toMatch(
      /demo: the whole suite in 2 shard\(s\) of test files: 2 job\(s\) to run, 0 from the catalog/,
    );
    // Lines every interval: done/total of the jobs and the time so far; while the hung test waits, a heartbeat.
    expect(run.stderr()).toMatch(/^ {2}[012]\/2 \(\d+%\) pytest jobs · [\d.]+ s elapsed/m);
    expect(run.stderr()).toMatch(/still running, nothing finished for [\d.]+ s/);
    // pytest-timeout stops the hung test at --timeout; the rest of its shard still runs.
    // The demo's 316 tests and the hung one: none lost to the hang.
    expect(run.stdout()).toContain('tests      317: 314 passed, 1 failed, 1 skipped, 1 xfailed\n');
  });

  it('fails a run whose patch does not apply, naming the patch, and refuses --all with --tests', {
    timeout: 300_000,
  }, async () => {
    const folder = makeTempDir().dir;
    const patch = join(folder, 'bad.diff');
    writeFileSync(patch, '--- a/inventory/util.py\n+++ b/inventory/util.py\n@@ -1,1 +1,1 @@\n-not there\n+nor this\n');
    const run = bufferIO();
    expect(await main(['run', 'demo', '--all', '--patch', patch, '--db', join(folder, 'catalog.duckdb')], run)).toBe(1);
    expect(run.stdout()).toContain('patch 1 of 1 does not apply');
    const both = bufferIO();
    expect(await main(['run', 'demo', '--all', '--tests', patch], both)).toBe(2);
    const unknown = bufferIO();
    expect(await main(['run', 'no-such-repo', '--all'], unknown)).toBe(2);
    expect(unknown.stderr()).toContain('no repository named "no-such-repo"');
  });
});
