import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { git } from '../git.js';

/** One commit of a history made by a test: its file contents and its dates. */
export interface DatedCommit {
  /** Files written (relative path → text) before committing; the others stay as they were. */
  readonly files: Readonly<Record<string, string>>;
  /** The committer date, ISO 8601 with a zone; the author date too unless `authoredAt` says otherwise. */
  readonly committedAt: string;
  readonly authoredAt?: string;
  readonly message?: string;
  /** A lightweight tag put on the commit. */
  readonly tag?: string;
}

/** A real git repository on branch `main`, and the sha of each commit in the order given. */
export interface DatedHistory {
  readonly path: string;
  readonly commits: readonly string[];
}

/**
 * A git repository in a fresh temp folder whose commits carry the dates given (GIT_AUTHOR_DATE and
 * GIT_COMMITTER_DATE set per commit), so that tests of date rules read real git.
 */
export async function makeDatedHistory(commits: readonly DatedCommit[]): Promise<DatedHistory> {
  const path = mkdtempSync(join(tmpdir(), 'repocod-history-'));
  await git(path, ['init', '--quiet', '--initial-branch=main']);
  const made: string[] = [];
  for (const [index, commit] of commits.entries()) made.push(await addCommit(path, commit, index));
  return { path, commits: made };
}

/** One more commit on the repository's current branch; its sha. */
export async function addCommit(path: string, commit: DatedCommit, index = 0): Promise<string> {
  for (const [file, text] of Object.entries(commit.files)) writeFileSync(join(path, file), text);
  await git(path, ['add', '--all']);
  await git(path, ['commit', '--quiet', '--no-gpg-sign', '--allow-empty', '-m', commit.message ?? `commit ${index}`], {
    GIT_AUTHOR_NAME: 'history',
    GIT_AUTHOR_EMAIL: 'history@localhost',
    GIT_AUTHOR_DATE: commit.authoredAt ?? commit.committedAt,
    GIT_COMMITTER_NAME: 'history',
    GIT_COMMITTER_EMAIL: 'history@localhost',
    GIT_COMMITTER_DATE: commit.committedAt,
  });
  const sha = await git(path, ['rev-parse', 'HEAD']);
  if (commit.tag !== undefined) await git(path, ['tag', commit.tag, sha]);
  return sha;
}
