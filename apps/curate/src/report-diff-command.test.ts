import { cpSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { releaseFolderVersions } from '@repocod/pipeline';
import { afterAll, describe, expect, it } from 'vitest';
import { demoFixture } from './testing/demo-fixture.js';
import { makeTempDir, runMain } from './testing/test-support.js';

const temp = makeTempDir();
afterAll(() => temp.cleanup(), 60_000);
const report = (...args: string[]) => runMain(['report', ...args]);

/**
 * `repocod report --diff` on the release the demo's whole flow made, beside a copy of its version under another
 * name: every task kept with the same body. (The reasons of added and removed tasks are the pipeline's
 * version-diff.test.ts, over two versions built apart.)
 */
describe('repocod report --diff', () => {
  const release = join(temp.dir, 'release');
  cpSync(demoFixture().releaseFolder, release, { recursive: true });
  const [version = ''] = releaseFolderVersions(release);
  cpSync(join(release, version), join(release, '9.9'), { recursive: true });
  const db = demoFixture().catalogPath;

  it('keeps every task of a version copied under another name, as text and as JSON', { timeout: 60_000 }, async () => {
    const text = await report('--diff', version, '9.9', '--release', release, '--db', db);
    expect(text.code, text.stderr).toBe(0);
    const tasks = Number(/ {2}\S+ {2}(\d+) tasks, cutoff not recorded\n/.exec(text.stdout)?.[1]);
    expect(tasks).toBeGreaterThan(0);
    const headline = `${version} → 9.9: ${tasks} kept (${tasks} same body, 0 changed body), 0 added, 0 removed\n`;
    expect(text.stdout.startsWith(headline), text.stdout).toBe(true);
    const json = await report(
      '--diff',
      version,
      '9.9',
      '--release',
      release,
      '--db',
      db,
      '--json',
      '--cutoff',
      '2024-06-01',
    );
    expect(json.code, json.stderr).toBe(0);
    const parsed = JSON.parse(json.stdout) as { kept: unknown[]; b: { cutoff: string; from: string } };
    expect(parsed.kept).toHaveLength(tasks);
    expect(parsed.b).toMatchObject({ cutoff: '2024-06-01T00:00:00Z', from: 'option' });
  });

  it('names the versions there for an unknown one, and says so of a folder that is no release', async () => {
    const unknown = await report('--diff', version, '3.0', '--release', release, '--db', db);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain(`version 3.0 is not in ${release}; its versions: ${version}, 9.9`);
    mkdirSync(join(temp.dir, 'empty'));
    const empty = await report('--diff', '1.0', '2.0', '--release', join(temp.dir, 'empty'), '--db', db);
    expect(empty.stderr).toContain(`--release ${join(temp.dir, 'empty')} is not a release folder`);
    const one = await report('--diff', version, '--release', release);
    expect(one.stderr).toContain('--diff takes two versions: VERSION_A VERSION_B');
    const future = await report('--diff', version, '9.9', '--release', release, '--cutoff', '2999-01-01');
    expect(future.stderr).toMatch(/--cutoff 2999-01-01 is in the future/);
    const stray = await report('--cutoff', '2024-01-01', '--db', db);
    expect(stray.stderr).toContain('--cutoff goes with --diff');
  });
});
