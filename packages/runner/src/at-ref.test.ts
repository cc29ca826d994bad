import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { AtError } from './at-error.js';
import { type ResolveAtOptions, resolveAt } from './at-ref.js';
import { git } from './git.js';
import { addCommit, type DatedHistory, makeDatedHistory } from './testing/dated-commits.js';

/**
 * main: c0 (2024-01-10 12:00Z, tag v1.0) → c1 (2024-02-01 00:00Z, on the stroke of midnight) → c2 (2024-02-15
 * 01:00+02:00, i.e. 2024-02-14 23:00Z, tag v2.0) → c4, the merge of branch side (c3, 2024-02-16) on 2024-03-05.
 */
let history: DatedHistory;
let side: string;
let merge: string;

beforeAll(async () => {
  history = await makeDatedHistory([
    { files: { 'mod.py': 'x = 0\n' }, committedAt: '2024-01-10T12:00:00Z', tag: 'v1.0' },
    { files: { 'mod.py': 'x = 1\n' }, committedAt: '2024-02-01T00:00:00Z' },
    { files: { 'mod.py': 'x = 2\n' }, committedAt: '2024-02-15T01:00:00+02:00', tag: 'v2.0' },
  ]);
  await git(history.path, ['checkout', '--quiet', '-b', 'side']);
  side = await addCommit(history.path, { files: { 'side.py': 'y = 3\n' }, committedAt: '2024-02-16T10:00:00Z' });
  await git(history.path, ['checkout', '--quiet', 'main']);
  await git(history.path, ['merge', '--quiet', '--no-ff', '--no-edit', 'side'], {
    GIT_AUTHOR_DATE: '2024-03-05T08:00:00Z',
    GIT_COMMITTER_DATE: '2024-03-05T08:00:00Z',
    GIT_COMMITTER_NAME: 'history',
    GIT_COMMITTER_EMAIL: 'history@localhost',
    GIT_AUTHOR_NAME: 'history',
    GIT_AUTHOR_EMAIL: 'history@localhost',
  });
  merge = await git(history.path, ['rev-parse', 'HEAD']);
});

const c = (index: number): string => history.commits[index] ?? '';

async function failure(spec: string, options: ResolveAtOptions = {}): Promise<AtError> {
  try {
    await resolveAt(history.path, spec, { label: `--at flask=${spec}`, ...options });
  } catch (error) {
    if (error instanceof AtError) return error;
    throw error;
  }
  throw new Error(`expected ${spec} to name no commit`);
}

describe('resolveAt', () => {
  it('resolves HEAD, a tag, a branch, a full and a short sha to the full sha with its UTC committer date', async () => {
    expect(await resolveAt(history.path, 'HEAD')).toEqual({
      commit: merge,
      committedAt: '2024-03-05T08:00:00Z',
      describedAs: 'HEAD of main',
    });
    expect(await resolveAt(history.path, 'v1.0')).toEqual({
      commit: c(0),
      committedAt: '2024-01-10T12:00:00Z',
      describedAs: 'tag v1.0',
    });
    expect(await resolveAt(history.path, 'v2.0')).toMatchObject({ commit: c(2), committedAt: '2024-02-14T23:00:00Z' });
    expect(await resolveAt(history.path, 'side')).toMatchObject({ commit: side, describedAs: 'branch side' });
    expect(await resolveAt(history.path, c(1))).toMatchObject({ commit: c(1), describedAs: `commit ${c(1)}` });
    const short = c(1).slice(0, 7);
    expect(await resolveAt(history.path, short)).toMatchObject({ commit: c(1), describedAs: `commit ${short}` });
    expect(await resolveAt(history.path, 'main~1')).toMatchObject({ commit: c(2), describedAs: 'revision main~1' });
  });

  it('reads a day as the last first-parent commit of the default branch committed before 00:00 UTC of it', async () => {
    const at = async (day: string): Promise<string> => (await resolveAt(history.path, day)).commit;
    // Between c0 and c1; c1, committed on the stroke of 2024-02-01's midnight, is not before that day.
    expect(await at('2024-01-20')).toBe(c(0));
    expect(await at('2024-02-01')).toBe(c(0));
    expect(await at('2024-02-02')).toBe(c(1));
    // c2's +02:00 date is 2024-02-14 in UTC: before 2024-02-15.
    expect(await at('2024-02-15')).toBe(c(2));
    // side's commit (02-16) reached main with the merge of 03-05: on 03-01 main was still at c2.
    expect(await resolveAt(history.path, '2024-03-01')).toEqual({
      commit: c(2),
      committedAt: '2024-02-14T23:00:00Z',
      describedAs: 'the last commit on main before 2024-03-01 (UTC)',
    });
    expect(await at('2024-03-06')).toBe(merge);
  });

  it('takes today (UTC), and refuses a day that has not begun or that precedes the first commit', async () => {
    const now = new Date('2030-06-01T10:00:00Z');
    expect((await resolveAt(history.path, '2030-06-01', { now })).commit).toBe(merge);
    const future = await failure('2030-06-02', { now });
    expect(future.code).toBe('date-in-future');
    expect(future.message).toBe(
      '--at flask=2030-06-02: 2030-06-02 has not begun yet (UTC), so the last commit before it is not known; give a ' +
        'day up to today, or HEAD for the newest commit',
    );
    const early = await failure('2024-01-10');
    expect(early.code).toBe('date-before-history');
    expect(early.message).toBe(
      '--at flask=2024-01-10: main has no commit before 2024-01-10 (its first commit is dated 2024-01-10T12:00:00Z); ' +
        'give a later day',
    );
  });

  it('names an unknown ref with the tags and branches spelled nearest to it', async () => {
    const error = await failure('v1.1');
    expect(error.code).toBe('ref-not-found');
    expect(error.near).toEqual(['v1.0', 'v2.0']);
    expect(error.message).toBe(
      `--at flask=v1.1: no commit, tag or branch "v1.1" in ${history.path} (near: v1.0, v2.0); check the spelling, ` +
        `fetch the clone, or give a sha, HEAD or a day as YYYY-MM-DD`,
    );
    expect((await failure('0123456789abcdef0123456789abcdef01234567')).near).toEqual([]);
    expect((await failure('a..b')).code).toBe('ref-malformed');
  });

  it("reads HEAD, days and branch names on origin's in a clone of a url, whose own HEAD is detached", async () => {
    const clone = join(mkdtempSync(join(tmpdir(), 'repocod-clone-')), 'flask');
    await git(tmpdir(), ['clone', '--quiet', '--no-checkout', history.path, clone]);
    await git(clone, ['checkout', '--quiet', '--detach', c(0)]);
    const mainline = 'refs/remotes/origin/HEAD';
    expect(await resolveAt(clone, 'HEAD', { mainline })).toMatchObject({
      commit: merge,
      describedAs: 'HEAD of origin/main',
    });
    expect(await resolveAt(clone, '2024-03-01', { mainline })).toMatchObject({
      commit: c(2),
      describedAs: 'the last commit on origin/main before 2024-03-01 (UTC)',
    });
    expect(await resolveAt(clone, 'side', { mainline })).toMatchObject({
      commit: side,
      describedAs: 'branch origin/side',
    });
    expect((await resolveAt(clone, 'HEAD')).commit).toBe(c(0));
  });
});
