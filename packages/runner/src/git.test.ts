import { mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RUNNER_COMMIT_ENV, commitTime, git } from './git.js';

const scratch = mkdtempSync(join(tmpdir(), 'repocod-git-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const AT = (date: string) => ({ ...RUNNER_COMMIT_ENV, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date });

/**
 * A merge whose one side renamed a file with an edit, then the file's old blob deleted: the combined diff `git show`
 * computes finds the rename by reading both blobs, as in plotly.py's newest commit (a merge) in its clipped mirror.
 */
async function clippedMerge(): Promise<{ path: string; merge: string }> {
  const path = join(scratch, 'merge');
  await git(scratch, ['init', '--quiet', '--initial-branch=main', path]);
  const lines = Array.from({ length: 40 }, (_, index) => `line ${index}`);
  writeFileSync(join(path, 'old.txt'), `${lines.join('\n')}\n`);
  await git(path, ['add', '--all']);
  await git(path, ['commit', '--quiet', '--no-gpg-sign', '-m', 'base'], AT('2026-01-01T00:00:00Z'));
  const old = await git(path, ['rev-parse', 'HEAD:old.txt']);
  await git(path, ['checkout', '--quiet', '-b', 'side']);
  await git(path, ['mv', 'old.txt', 'new.txt']);
  writeFileSync(join(path, 'new.txt'), `${lines.join('\n')}\nline 40\n`);
  await git(path, ['commit', '--quiet', '--no-gpg-sign', '-am', 'side'], AT('2026-01-02T00:00:00Z'));
  await git(path, ['checkout', '--quiet', 'main']);
  writeFileSync(join(path, 'other.txt'), 'other\n');
  await git(path, ['add', '--all']);
  await git(path, ['commit', '--quiet', '--no-gpg-sign', '-m', 'main'], AT('2026-01-03T00:00:00Z'));
  await git(path, ['merge', '--quiet', '--no-gpg-sign', '--no-edit', 'side'], AT('2026-08-07T15:29:43-04:00'));
  const merge = await git(path, ['rev-parse', 'HEAD']);
  unlinkSync(join(path, '.git/objects', old.slice(0, 2), old.slice(2)));
  return { path, merge };
}

describe('commitTime', () => {
  const repository = clippedMerge();

  it("reads a merge commit's time where git show fails on a blob a size-limited clone lacks", async () => {
    const { path, merge } = await repository;
    await expect(git(path, ['show', '--no-patch', '--format=%cI', merge])).rejects.toThrow(/unable to read/);
    expect(await commitTime(path, merge)).toBe('2026-08-07T15:29:43-04:00');
  });

  it('names the commit it cannot find', async () => {
    const { path } = await repository;
    await expect(commitTime(path, 'f'.repeat(40))).rejects.toThrow(/git log -1 --format=%cI f{40}/);
  });
});
