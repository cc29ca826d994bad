import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from './main.js';
import { bufferIO, DEMO_ROOT, makeTempDir } from './testing/test-support.js';

const savedState = process.env.REPOCOD_STATE;
afterEach(() => {
  if (savedState === undefined) delete process.env.REPOCOD_STATE;
  else process.env.REPOCOD_STATE = savedState;
});

/** The headless mode's failures: a stage that fails gives exit code 1 and says which stage and why. */
describe('repocod curate (headless)', () => {
  it('reports a repository whose environment cannot be built, runs none of its later stages, and exits 1', {
    timeout: 300_000,
  }, async () => {
    const { dir } = makeTempDir();
    process.env.REPOCOD_STATE = join(dir, 'state');
    const manifest = join(dir, 'manifest.yaml');
    writeFileSync(
      manifest,
      [
        'repositories:',
        '  - name: broken',
        `    source: ${DEMO_ROOT}`,
        '    python: "3.11"',
        '    package_root: .',
        '    install:',
        '      - python -c "import sys; sys.exit(\'no such dependency\')"',
        '    test_roots: [tests]',
        '',
      ].join('\n'),
    );
    const io = bufferIO();
    const code = await main(
      [
        'curate',
        '--yes',
        '--repo',
        'broken',
        '--manifest',
        manifest,
        '--db',
        join(dir, 'catalog.duckdb'),
        '--out',
        join(dir, 'release'),
      ],
      io,
    );
    expect(code, io.stderr()).toBe(1);
    expect(io.stdout()).toMatch(/\[prepare\] broken: FAILED after .*no such dependency/s);
    expect(io.stdout()).not.toMatch(/\[extract\] broken/);
    expect(io.stdout()).toMatch(/summary \(failed\)/);
    expect(io.stdout()).toMatch(/FAIL prepare broken/);
    expect(io.stdout()).toMatch(/skip extract broken +not run/);
    expect(io.stdout()).toMatch(/run the same command again: it carries on from the catalog/);
  });

  it('refuses what it cannot do before running anything', async () => {
    const { dir } = makeTempDir();
    const db = join(dir, 'catalog.duckdb');
    const extra = bufferIO();
    expect(await main(['curate', 'demo', '--db', db], extra)).toBe(2);
    expect(extra.stderr()).toMatch(/usage: repocod curate/);
    const hubUrl = bufferIO();
    expect(await main(['curate', '--yes', '--hub-url', 'http://127.0.0.1:9', '--db', db], hubUrl)).toBe(2);
    expect(hubUrl.stderr()).toMatch(/--hub-url goes with --push ORG\/NAME/);
    const recordOut = bufferIO();
    expect(await main(['curate', '--yes', '--record-out', join(dir, 'records'), '--db', db], recordOut)).toBe(2);
    expect(recordOut.stderr()).toMatch(/--record-out goes with --record/);
    const unknown = bufferIO();
    expect(
      await main(
        ['curate', '--yes', '--repo', 'no-such-repository', '--db', db, '--out', join(dir, 'release')],
        unknown,
      ),
    ).toBe(1);
    expect(unknown.stdout()).toMatch(/\[prepare\] no-such-repository: FAILED .*no-such-repository/);
  });
});
