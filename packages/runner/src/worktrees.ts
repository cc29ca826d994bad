import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { Checkout } from './checkout.js';
import { git } from './git.js';

/** One isolated working copy of a repository, owned by one worker at a time. */
export interface Worktree {
  readonly repository: string;
  readonly index: number;
  readonly path: string;
  readonly baseCommit: string;
}

/**
 * A pool of `count` git worktrees of the checkout under `<worktreesRoot>/<name>/w<i>`, each at the
 * base commit and clean. Existing worktrees are reused (and reset), so build products that git
 * ignores, slow to remake, survive from one run to the next.
 */
export async function ensureWorktrees(checkout: Checkout, count: number, worktreesRoot: string): Promise<Worktree[]> {
  const folder = join(worktreesRoot, checkout.name);
  mkdirSync(folder, { recursive: true });
  // Forget worktrees whose folders were deleted by hand, so that their paths can be added again.
  await git(checkout.path, ['worktree', 'prune']);
  const pool: Worktree[] = [];
  for (let index = 0; index < count; index++) {
    const worktree = {
      repository: checkout.name,
      index,
      path: join(folder, `w${index}`),
      baseCommit: checkout.baseCommit,
    };
    if (existsSync(join(worktree.path, '.git'))) {
      await takeSparsePatterns(checkout.path, worktree.path);
      await resetWorktree(worktree);
    } else {
      rmSync(worktree.path, { recursive: true, force: true });
      await git(checkout.path, [
        'worktree',
        'add',
        '--quiet',
        '--force',
        '--detach',
        worktree.path,
        checkout.baseCommit,
      ]);
    }
    pool.push(worktree);
  }
  return pool;
}

/**
 * The clone's sparse patterns (absent_files, checkout.ts) given to a worktree made before them: `git worktree add`
 * copies them only when it makes one. Nothing to do for a clone without them.
 */
async function takeSparsePatterns(clonePath: string, worktreePath: string): Promise<void> {
  const sparse = await git(clonePath, ['config', '--get', '--type=bool', 'core.sparseCheckout']).catch(() => 'false');
  if (sparse !== 'true') return;
  const patterns = readFileSync(
    resolve(clonePath, await git(clonePath, ['rev-parse', '--git-path', 'info/sparse-checkout'])),
  );
  const target = resolve(worktreePath, await git(worktreePath, ['rev-parse', '--git-path', 'info/sparse-checkout']));
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, patterns);
}

/**
 * Back to the base commit: tracked files restored, untracked files removed, but files git ignores
 * (compiled extensions, build/ folders, egg-info) kept, since remaking them can take minutes.
 */
export async function resetWorktree(worktree: Worktree): Promise<void> {
  await git(worktree.path, ['reset', '--quiet', '--hard', worktree.baseCommit]);
  await git(worktree.path, ['clean', '--quiet', '-d', '--force']);
}

export type PatchOutcome = { readonly ok: true } | { readonly ok: false; readonly message: string };

/**
 * Applies unified diffs in order with `git apply`. A patch that does not apply is the job's error,
 * not a crash: the outcome says which patch and git's reason, and the worktree is reset.
 */
export async function applyPatches(worktree: Worktree, patches: readonly string[]): Promise<PatchOutcome> {
  const scratch = mkdtempSync(join(tmpdir(), 'repocod-patch-'));
  try {
    for (const [index, patch] of patches.entries()) {
      const file = join(scratch, `${index}.diff`);
      writeFileSync(file, patch);
      try {
        await git(worktree.path, ['apply', '--whitespace=nowarn', file]);
      } catch (error) {
        await resetWorktree(worktree);
        return {
          ok: false,
          message:
            `patch ${index + 1} of ${patches.length} does not apply: ` +
            `${error instanceof Error ? error.message : String(error)}`,
        };
      }
    }
    return { ok: true };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
