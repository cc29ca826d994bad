import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Checkout } from './checkout.js';
import { ensureCheckout } from './checkout.js';
import { git } from './git.js';
import { loadManifest } from './manifest.js';
import { applyPatches, ensureWorktrees, resetWorktree } from './worktrees.js';

const PROJECT_ROOT = resolve(new URL('../../..', import.meta.url).pathname);
let checkout: Checkout;

beforeAll(async () => {
  const entry = loadManifest(resolve(PROJECT_ROOT, 'datasets/demo/manifest.yaml')).repositories[0];
  if (entry === undefined) throw new Error('no demo entry');
  checkout = await ensureCheckout(entry, {
    reposRoot: mkdtempSync(join(tmpdir(), 'repocod-repos-')),
    projectRoot: PROJECT_ROOT,
  });
});

/** A real diff, made by git from an edit of the demo's util module. */
async function makePatch(worktreePath: string): Promise<string> {
  const file = join(worktreePath, 'inventory/util.py');
  writeFileSync(file, readFileSync(file, 'utf8').replace('def round_money(', 'def round_money_renamed('));
  const diff = await git(worktreePath, ['diff']);
  await git(worktreePath, ['checkout', '--', '.']);
  return `${diff}\n`;
}

describe('worktrees', () => {
  it('makes a pool of separate working copies at the base commit and reuses them', async () => {
    const root = mkdtempSync(join(tmpdir(), 'repocod-worktrees-'));
    const pool = await ensureWorktrees(checkout, 2, root);
    expect(pool.map((worktree) => worktree.path)).toEqual([join(root, 'demo/w0'), join(root, 'demo/w1')]);
    for (const worktree of pool) expect(await git(worktree.path, ['rev-parse', 'HEAD'])).toBe(checkout.baseCommit);
    const again = await ensureWorktrees(checkout, 2, root);
    expect(again).toEqual(pool);
  });

  it('applies a patch in one copy only, and a reset restores it, keeping ignored build products', async () => {
    const [first, second] = await ensureWorktrees(checkout, 2, mkdtempSync(join(tmpdir(), 'repocod-worktrees-')));
    if (first === undefined || second === undefined) throw new Error('pool too small');
    const patch = await makePatch(first.path);
    expect(await applyPatches(first, [patch])).toEqual({ ok: true });
    expect(readFileSync(join(first.path, 'inventory/util.py'), 'utf8')).toContain('def round_money_renamed(');
    expect(readFileSync(join(second.path, 'inventory/util.py'), 'utf8')).not.toContain('def round_money_renamed(');
    mkdirSync(join(first.path, 'inventory/__pycache__'), { recursive: true });
    writeFileSync(join(first.path, 'inventory/__pycache__/util.cpython-311.pyc'), 'ignored build product');
    writeFileSync(join(first.path, 'stray.py'), 'left by a test');
    await resetWorktree(first);
    expect(readFileSync(join(first.path, 'inventory/util.py'), 'utf8')).not.toContain('def round_money_renamed(');
    expect(existsSync(join(first.path, 'stray.py'))).toBe(false);
    expect(existsSync(join(first.path, 'inventory/__pycache__/util.cpython-311.pyc'))).toBe(true);
  });

  it('reports a patch that does not apply as the job error, and leaves the copy clean', async () => {
    const [worktree] = await ensureWorktrees(checkout, 1, mkdtempSync(join(tmpdir(), 'repocod-worktrees-')));
    if (worktree === undefined) throw new Error('pool too small');
    const patch = await makePatch(worktree.path);
    const outcome = await applyPatches(worktree, [patch, patch]);
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.message).toMatch(/patch 2 of 2 does not apply: .*inventory\/util.py/s);
    expect(await git(worktree.path, ['status', '--porcelain'])).toBe('');
  });
});
