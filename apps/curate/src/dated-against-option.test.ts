import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeReleaseSdists } from '@repocod/testkit';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from './main.js';
import { bufferIO, makeTempDir } from './testing/test-support.js';

// Two sdists of the test kit's package, 1.0 of 2025-08-01 and 1.1 of 2026-02-01; the repository's source is 1.1
// unpacked, standing in for a commit that cannot be cloned.
const temp = makeTempDir();
const folder = temp.dir;
afterAll(() => temp.cleanup());
const sdists = makeReleaseSdists(join(folder, 'releases'), '2025-08-01T10:00:00Z', '2026-02-01T10:00:00Z');
mkdirSync(join(folder, 'stand-in'));
execFileSync('tar', ['-xzf', sdists.newer.archive, '-C', join(folder, 'stand-in')]);
const source = join(folder, 'stand-in', 'tinypkg-1.1');
const manifest = join(folder, 'manifest.yaml');
writeFileSync(
  manifest,
  [
    'repositories:',
    '  - name: tinypkg',
    '    url: https://example.invalid/tinypkg.git',
    `    base_commit: ${'a'.repeat(40)}`,
    '    python: "3.11"',
    '    install: []',
    '    test_roots: [tests]',
    '',
  ].join('\n'),
);
const db = join(folder, 'catalog.duckdb');
const common = ['--manifest', manifest, '--source', `tinypkg=${source}`, '--db', db];

async function refused(args: readonly string[]): Promise<string> {
  const io = bufferIO();
  expect(await main([...args], io), io.stderr()).toBe(2);
  return io.stderr();
}

/** The refusals of --dated-against come before anything is checked out, built or stored: no catalog is made. */
describe('--dated-against on the command line', () => {
  it('mine: refuses an older release not before the cutoff, naming both dates', async () => {
    const cutoff = ['--changed-since', '2025-06-01', '--dated-against', `tinypkg=${sdists.older.archive}`];
    const error = await refused(['mine', 'tinypkg', ...common, ...cutoff]);
    expect(error).toContain(`error: --dated-against tinypkg=${sdists.older.archive}: tinypkg 1.0 was released`);
    expect(error).toContain('2025-08-01T10:00:00Z');
    expect(error).toContain('not before --changed-since 2025-06-01T00:00:00Z');
    expect(existsSync(db)).toBe(false);
  });

  it('tasks: refuses a file that is not a Python sdist, naming the option and the path', async () => {
    const wheel = join(folder, 'tinypkg-1.0-py3-none-any.whl');
    writeFileSync(wheel, 'PK');
    const cutoff = ['--changed-since', '2025-06-01', '--dated-against', `tinypkg=${wheel}`];
    const error = await refused(['tasks', 'tinypkg', ...common, ...cutoff]);
    expect(error).toContain(`error: --dated-against tinypkg=${wheel}: it is not a source distribution`);
    expect(existsSync(db)).toBe(false);
  });

  it('curate: refuses --dated-against without --changed-since, and a repository taken from git', async () => {
    const alone = await refused(['curate', '--yes', ...common, '--dated-against', `tinypkg=${sdists.older.archive}`]);
    expect(alone).toContain('dates bodies for --changed-since DATE');
    const fromGit = await refused([
      'curate',
      '--yes',
      '--manifest',
      manifest,
      '--db',
      db,
      '--changed-since',
      '2025-06-01',
      '--dated-against',
      `tinypkg=${sdists.older.archive}`,
    ]);
    expect(fromGit).toContain('tinypkg is taken from git (https://example.invalid/tinypkg.git)');
    expect(existsSync(db)).toBe(false);
  });
});
