import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ReleaseManifest } from '@repocod/pipeline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from './main.js';
import { bufferIO, makeTempDir } from './testing/test-support.js';
import { demoFixture } from './testing/demo-fixture.js';

const savedState = process.env.REPOCOD_STATE;
const temp = makeTempDir();
const curated = join(temp.dir, 'curated.duckdb');
const checkpoints = join(temp.dir, 'checkpoints');
const manifestFile = join(temp.dir, 'demo-release.json');
let written = '';

async function repocod(...args: string[]): Promise<{ code: number; out: string }> {
  const io = bufferIO();
  const code = await main(args, io);
  return { code, out: `${io.stdout()}${io.stderr()}` };
}

/**
 * The curator's side on the demo's curated catalog (the screens' fixture: the whole flow ran once): its
 * checkpoint saved, then its selection released and described in a release manifest. Each test then
 * rebuilds it in a catalog of its own from the checkpoint alone, as someone with a fresh clone would.
 */
beforeAll(async () => {
  process.env.REPOCOD_STATE = join(temp.dir, 'state');
  copyFileSync(demoFixture().catalogPath, curated);
  const saved = await repocod('checkpoint', 'save', 'demo', '--dir', checkpoints, '--db', curated);
  expect(saved.code, saved.out).toBe(0);
  const write = await repocod(
    ...['rebuild', '--write-manifest', manifestFile, '--version', '1.0', '--db', curated],
    ...['--checkpoints', checkpoints, '--out', join(temp.dir, 'curated-release')],
  );
  written = write.out;
  expect(write.code, write.out).toBe(0);
}, 900_000);

afterAll(() => {
  if (savedState === undefined) delete process.env.REPOCOD_STATE;
  else process.env.REPOCOD_STATE = savedState;
  temp.cleanup();
}, 120_000);

const manifest = (): ReleaseManifest => JSON.parse(readFileSync(manifestFile, 'utf8')) as ReleaseManifest;

describe('repocod rebuild', () => {
  it('writes a release manifest: selection, every verdict, the sha256 of each file and of each task row', () => {
    expect(written).toMatch(/\n {2}jobs run {5}0 \(the checkpoints answered every job\)\n/);
    const release = manifest();
    expect(release).toMatchObject({ format: 'repocod-release-manifest/1', version: '1.0' });
    // The demo's 52 tasks: one fails validation (ensure_non_negative), and the release leaves it out.
    expect(release.tasks).toHaveLength(51);
    expect(Object.keys(release.verdicts)).toHaveLength(52);
    expect(release.verdicts['demo-inventory.util.ensure_non_negative']).toBe('failed');
    expect(Object.keys(release.files)).toEqual([
      '1.0/environments.txt',
      '1.0/tasks.jsonl',
      '1.0/test-00000-of-00001.parquet',
      '1.0/validation.jsonl',
    ]);
    expect(release.repositories.demo).toMatchObject({
      validate_runs: 3,
      checkpoint: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(release.tasks.every((task) => /^[0-9a-f]{64}$/.test(task.row_sha256))).toBe(true);
  });

  it('makes the same release again in a fresh catalog from the checkpoint alone, running no job', {
    timeout: 900_000,
  }, async () => {
    const rebuilt = await repocod(
      ...['rebuild', '--release-manifest', manifestFile, '--checkpoints', checkpoints],
      ...['--db', join(temp.dir, 'fresh.duckdb'), '--out', join(temp.dir, 'rebuilt-release')],
    );
    expect(rebuilt.code, rebuilt.out).toBe(0);
    expect(rebuilt.out).toMatch(/\[checkpoints\] \d+ row\(s\) restored/);
    expect(rebuilt.out).toMatch(/\n {2}jobs run {5}0 \(the checkpoints answered every job\)\n/);
    expect(rebuilt.out).toMatch(
      /same release: selection [0-9a-f]{16}, 52 verdicts, 4 file and 51 row sha256s as committed/,
    );
    expect(rebuilt.out).toMatch(/phases {7}sources [\d.]+ s, checkpoints [\d.]+ s, environments [\d.]+ s, tasks/);
  });

  it('names the first differing task, and refuses checkpoints other than the release’s', {
    timeout: 900_000,
  }, async () => {
    const release = manifest();
    const [first, second] = release.tasks;
    const tampered = {
      ...release,
      tasks: release.tasks.map((task) =>
        task === first || task === second ? { ...task, row_sha256: '0'.repeat(64) } : task,
      ),
    };
    const tamperedFile = join(temp.dir, 'tampered.json');
    writeFileSync(tamperedFile, JSON.stringify(tampered));
    const db = join(temp.dir, 'second.duckdb');
    const differs = await repocod(
      ...['rebuild', '--release-manifest', tamperedFile, '--checkpoints', checkpoints, '--db', db],
      ...['--out', join(temp.dir, 'second-release')],
    );
    expect(differs.code, differs.out).toBe(1);
    expect(differs.out).toContain(
      `NOT the same release (1 difference(s)):\n    task: ${first?.instance_id}: row sha256`,
    );
    expect(differs.out).toContain('(2 task row(s) differ)');

    const otherCheckpoint = join(temp.dir, 'other-checkpoint.json');
    const repositories = { demo: { ...release.repositories.demo, checkpoint: 'f'.repeat(64) } };
    writeFileSync(otherCheckpoint, JSON.stringify({ ...release, repositories }));
    const refused = await repocod(
      'rebuild',
      '--release-manifest',
      otherCheckpoint,
      '--db',
      db,
      '--checkpoints',
      checkpoints,
    );
    expect(refused.code).toBe(1);
    expect(refused.out).toMatch(/demo: the checkpoint in .* has digest [0-9a-f]{64}, the release was built from f{64}/);

    const misused = await repocod('rebuild', 'lite', '--version', '2.0', '--db', db);
    expect(misused.code).toBe(2);
    expect(misused.out).toContain('--version and --selection are for --write-manifest');

    const malformed = join(temp.dir, 'malformed.json');
    writeFileSync(malformed, JSON.stringify({ ...release, verdicts: { x: 'maybe' } }));
    const bad = await repocod('rebuild', '--release-manifest', malformed, '--db', db);
    expect(bad.code).not.toBe(0);
    expect(bad.out).toContain('malformed.json (verdicts.x): "maybe", expected passed or failed');
  });
});
