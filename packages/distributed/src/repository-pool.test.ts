import { describe, expect, it } from 'vitest';
import type { ManifestEntry, PreparedRepository } from '@repocod/runner';
import { NO_BUILD_ARTEFACTS } from '@repocod/runner';
import { RepositoryPool } from './repository-pool.js';

// The pool's bookkeeping only: what it lends and when it prepares. Real preparation is in the worker's tests.
function entry(name: string): ManifestEntry {
  return {
    name,
    python: '3.11',
    packageRoot: '.',
    install: [],
    testRoots: ['tests'],
    pytestArgs: [],
    deselect: [],
    env: {},
    timeoutSeconds: 60,
    url: null,
    source: `datasets/${name}`,
    baseCommit: null,
  };
}

function prepared(value: ManifestEntry, worktrees: number): PreparedRepository {
  return {
    entry: value,
    checkout: { name: value.name, path: '/x', baseCommit: 'c', commitTimestamp: '' },
    environment: {} as PreparedRepository['environment'],
    worktrees: Array.from({ length: worktrees }, (_, index) => ({
      repository: value.name,
      index,
      path: `/w${index}`,
      baseCommit: 'c',
    })),
    artefacts: NO_BUILD_ARTEFACTS,
  };
}

describe('RepositoryPool', () => {
  it('prepares a repository once for jobs that arrive together, and again after a failure', async () => {
    let calls = 0;
    const pool = new RepositoryPool(async (value) => {
      calls++;
      if (calls === 1) throw new Error('pip failed');
      return prepared(value, 2);
    });
    await expect(pool.repository(entry('demo'))).rejects.toThrow('pip failed');
    const [a, b] = await Promise.all([pool.repository(entry('demo')), pool.repository(entry('demo'))]);
    expect(a).toBe(b);
    expect(calls).toBe(2);
    await pool.repository(entry('demo'), true);
    expect(calls).toBe(3);
  });

  it('lends each worktree to one job at a time, and makes the next job wait for one', async () => {
    const pool = new RepositoryPool(async (value) => prepared(value, 2));
    const repository = await pool.repository(entry('demo'));
    const inUse = new Set<number>();
    let most = 0;
    const order: number[] = [];
    await Promise.all(
      [1, 2, 3, 4, 5].map((job) =>
        pool.withWorktree(repository, async (worktree) => {
          expect(inUse.has(worktree.index)).toBe(false);
          inUse.add(worktree.index);
          most = Math.max(most, inUse.size);
          await new Promise((resolve) => setTimeout(resolve, 5 * job));
          inUse.delete(worktree.index);
          order.push(job);
        }),
      ),
    );
    expect(most).toBe(2);
    expect(order.sort()).toEqual([1, 2, 3, 4, 5]);
  });
});
