import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { git, runnerPaths } from '@repocod/runner';
import { describe, expect, it } from 'vitest';
import { findRepository } from './find-repository.js';
import { repositoryAt } from './repository-at.js';

/** A clone of two commits, the first tagged v1.0, with dates of their own. */
async function twoCommits(): Promise<{ path: string; first: string; second: string }> {
  const path = mkdtempSync(join(tmpdir(), 'repocod-at-'));
  await git(path, ['init', '--quiet', '--initial-branch=main']);
  const commit = async (text: string, date: string): Promise<string> => {
    writeFileSync(join(path, 'mod.py'), text);
    await git(path, ['add', '--all']);
    const who = { GIT_AUTHOR_NAME: 'a', GIT_AUTHOR_EMAIL: 'a@localhost', GIT_COMMITTER_NAME: 'a' };
    await git(path, ['commit', '--quiet', '--no-gpg-sign', '-m', text], {
      ...who,
      GIT_COMMITTER_EMAIL: 'a@localhost',
      GIT_AUTHOR_DATE: date,
      GIT_COMMITTER_DATE: date,
    });
    return git(path, ['rev-parse', 'HEAD']);
  };
  const first = await commit('x = 1\n', '2024-01-10T12:00:00Z');
  await git(path, ['tag', 'v1.0']);
  return { path, first, second: await commit('x = 2\n', '2024-05-01T12:00:00Z') };
}

describe('repositoryAt', () => {
  it("moves the entry to its own --at's commit, says so, and leaves it alone for another repository's", async () => {
    const clone = await twoCommits();
    const manifestFile = join(mkdtempSync(join(tmpdir(), 'repocod-manifest-')), 'manifest.yaml');
    writeFileSync(
      manifestFile,
      `repositories:\n  - {name: mine, source: ${clone.path}, python: "3.11", install: [], test_roots: [tests]}\n` +
        `  - {name: other, source: ${clone.path}, python: "3.11", install: [], test_roots: [tests]}\n`,
    );
    const projectRoot = mkdtempSync(join(tmpdir(), 'repocod-project-'));
    const options = { projectRoot, manifest: manifestFile, ats: ['mine=2024-02-01', 'other=HEAD'] };
    const entry = findRepository('mine', options);
    expect(entry.baseCommit).toBeNull();
    const lines: string[] = [];
    const moved = await repositoryAt(entry, options.ats, runnerPaths(projectRoot), (line) => lines.push(line));
    // Another era than the manifest's (its folder's state): catalog-name.ts keys it as mine@COMMIT12.
    expect(moved).toEqual({ ...entry, baseCommit: clone.first, manifestCommit: null });
    expect(lines).toEqual([
      `mine: --at mine=2024-02-01 is ${clone.first.slice(0, 12)}, the last commit on main before 2024-02-01 (UTC), ` +
        `committed 2024-01-10T12:00:00Z`,
    ]);
    expect(await repositoryAt(entry, ['other=HEAD'], runnerPaths(projectRoot))).toBe(entry);
    // A typo is refused when the manifest is read, before any git.
    expect(() => findRepository('mine', { ...options, ats: ['mien=HEAD'] })).toThrow(/no repository named "mien"/);
  });
});
