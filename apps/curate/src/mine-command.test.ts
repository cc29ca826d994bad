import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from './main.js';
import { bufferIO, DEMO_ROOT, makeTempDir } from './testing/test-support.js';

const MANIFEST = join(DEMO_ROOT, '../mining-edge-cases/manifest.yaml');

/** `repocod mine` on the edge-case project: real checkout, real venv, real pytest, a real catalog. */
describe('repocod mine', () => {
  it('mines the chosen functions, prints the summary, and answers a rerun from the catalog', {
    timeout: 300_000,
  }, async () => {
    const folder = makeTempDir().dir;
    const config = join(folder, 'config.json');
    // The fixture's docstrings are short: every documented function is a candidate here.
    writeFileSync(config, JSON.stringify({ candidateFilter: { minDocstringLinesExclusive: 0 } }));
    const db = join(folder, 'catalog.duckdb');
    const args = [
      'mine',
      'mining-edge-cases',
      '--manifest',
      MANIFEST,
      '--config',
      config,
      '--db',
      db,
      '--workers',
      '2',
      '--only',
      'double',
      '--only',
      'unused',
    ];
    const first = bufferIO();
    expect(await main(args, first), first.stderr()).toBe(0);
    expect(first.stderr()).toMatch(/baseline \(traced run for the coverage map \+ plain runs\): 4 pytest run\(s\)/);
    const out = first.stdout();
    expect(out).toMatch(/^mining-edge-cases at [0-9a-f]{12}: fast mode, 2 worker\(s\)/);
    expect(out).toMatch(/candidates\s+\d+ \(2 chosen with --only\); 2 mined now, 0 from an earlier run/);
    expect(out).toContain('with tests       1   no tests 1   errors 0');
    expect(out).toContain('tests/function   mean 1.0, max 1');
    expect(out).toMatch(/baseline\s+19 tests, 19 passing in every run, 0 flaky/);
    expect(out).toContain('unused: no test runs its body');

    const again = bufferIO();
    expect(await main(args, again)).toBe(0);
    expect(again.stdout()).toContain('0 mined now, 2 from an earlier run');
    expect(again.stdout()).toContain('phases           none: everything came from the catalog');

    const stored = bufferIO();
    expect(
      await main(
        ['sql', 'select qualname, status, len(tests) as n from relevant_tests order by qualname', '--db', db],
        stored,
      ),
    ).toBe(0);
    expect(stored.stdout()).toMatch(/double\s+\|\s+tests\s+\|\s+1\n.*unused\s+\|\s+no-tests\s+\|\s+0/s);
  });

  it('refuses an unknown option and a --only that names nothing, with exit code 2', { timeout: 300_000 }, async () => {
    const unknown = bufferIO();
    expect(await main(['mine', 'demo', '--fast'], unknown)).toBe(2);
    expect(unknown.stderr()).toMatch(/unknown option --fast for "mine"/);
    const folder = makeTempDir().dir;
    const nothing = bufferIO();
    expect(await main(['mine', 'demo', '--only', 'no_such_function', '--db', join(folder, 'c.duckdb')], nothing)).toBe(
      2,
    );
    expect(nothing.stderr()).toMatch(/--only no_such_function: no candidate function of demo has that qualified name/);
  });

  it('refuses Lite-first mining without repositories, with --only, and its options without --lite', async () => {
    const folder = makeTempDir().dir;
    const db = join(folder, 'c.duckdb');
    const cases: [string[], RegExp][] = [
      [['mine', '--lite', '--db', db], /--lite needs the repositories to mine, as arguments or with --repo/],
      [['mine', '--lite', 'demo', '--only', 'f', '--db', db], /--only does not go with --lite/],
      [['mine', 'demo', '--margin', '10%', '--db', db], /--margin goes with --lite/],
      [
        ['mine', '--lite', 'demo', '--margin', 'some', '--db', db],
        /--margin must be a percentage of each quota such as 20% or a number of tasks/,
      ],
      [
        ['curate', '--yes', '--all', '--margin', '5', '--db', db],
        /--margin is for Lite-first mining; --all mines every candidate/,
      ],
    ];
    for (const [args, message] of cases) {
      const io = bufferIO();
      expect(await main(args, io), args.join(' ')).toBe(2);
      expect(io.stderr()).toMatch(message);
    }
  });
});
