import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { RepocodError } from '@repocod/core';

const execFileAsync = promisify(execFile);

/**
 * Runs git with arguments (never a shell string) and returns its trimmed stdout. A failure names the
 * command, the folder and git's own message. Commits made by the runner carry a fixed identity and
 * date, so the same files always give the same commit id.
 */
export async function git(
  cwd: string,
  args: readonly string[],
  env: Readonly<Record<string, string>> = {},
): Promise<string> {
  return (await gitOutput(cwd, args, env)).trim();
}

/** Like git, with stdout exactly as git wrote it: for output whose leading or trailing whitespace means something. */
export async function gitOutput(
  cwd: string,
  args: readonly string[],
  env: Readonly<Record<string, string>> = {},
): Promise<string> {
  try {
    const { stdout } = await execFileAsync('git', args, {
      cwd,
      maxBuffer: 1 << 28,
      env: { ...process.env, GIT_TERMINAL_PROMPT: '0', ...env },
    });
    return stdout;
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr?.trim() ?? '';
    const reason = stderr === '' ? (error instanceof Error ? error.message : String(error)) : stderr;
    throw new RepocodError('git-failed', `git ${args.join(' ')} (in ${cwd}) failed: ${reason}`, { cause: error });
  }
}

/** Whether `git` succeeds, for questions such as "is this commit here?". */
export async function gitSucceeds(cwd: string, args: readonly string[]): Promise<boolean> {
  try {
    await git(cwd, args);
    return true;
  } catch {
    return false;
  }
}

/**
 * A commit's committer time as git writes `%cI` (ISO 8601 with the committer's zone). It is read with `git log`,
 * never `git show --no-patch`: on a merge commit `show` still computes the combined diff, whose rename detection
 * reads blobs and fails in a clone made under a size limit (plotly.py's newest commit is a merge).
 */
export async function commitTime(cwd: string, commit: string): Promise<string> {
  return git(cwd, ['log', '-1', '--format=%cI', commit, '--']);
}

/** The identity and date of commits the runner makes itself (the demo's snapshot). */
export const RUNNER_COMMIT_ENV: Readonly<Record<string, string>> = {
  GIT_AUTHOR_NAME: 'repocod-kit',
  GIT_AUTHOR_EMAIL: 'repocod-kit@localhost',
  GIT_AUTHOR_DATE: '2024-01-01T00:00:00Z',
  GIT_COMMITTER_NAME: 'repocod-kit',
  GIT_COMMITTER_EMAIL: 'repocod-kit@localhost',
  GIT_COMMITTER_DATE: '2024-01-01T00:00:00Z',
};
