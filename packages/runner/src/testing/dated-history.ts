import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { git } from '../git.js';

/** A git repository made in a temp folder, whose commits carry the dates a test gives them. */
export interface DatedHistory {
  readonly path: string;
  /**
   * Writes the files (null deletes one), commits everything with the author date `authored` and the committer date
   * `committed` (the author date when not given), and returns the commit.
   */
  commit(
    message: string,
    authored: string,
    files: Readonly<Record<string, string | null>>,
    committed?: string,
  ): Promise<string>;
}

export async function makeDatedHistory(): Promise<DatedHistory> {
  const path = mkdtempSync(join(tmpdir(), 'repocod-dated-'));
  await git(path, ['init', '--quiet', '--initial-branch=main']);
  return {
    path,
    async commit(message, authored, files, committed = authored) {
      for (const [file, text] of Object.entries(files)) {
        const target = join(path, file);
        if (text === null) rmSync(target);
        else {
          mkdirSync(dirname(target), { recursive: true });
          writeFileSync(target, text);
        }
      }
      await git(path, ['add', '--all']);
      await git(path, ['commit', '--quiet', '--allow-empty', '-m', message], {
        GIT_AUTHOR_NAME: 'Author',
        GIT_AUTHOR_EMAIL: 'author@localhost',
        GIT_AUTHOR_DATE: authored,
        GIT_COMMITTER_NAME: 'Committer',
        GIT_COMMITTER_EMAIL: 'committer@localhost',
        GIT_COMMITTER_DATE: committed,
      });
      return git(path, ['rev-parse', 'HEAD']);
    },
  };
}
