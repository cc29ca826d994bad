import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Catalog } from '@repocod/catalog';
import { openCatalog } from '@repocod/catalog';
import { isRepocodError } from '@repocod/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractStep } from '../steps/extract.js';
import { makeTempDir } from '../testing/test-support.js';
import { bodyDates, changedSinceCutoff, type DatedCheckout } from './body-dates.js';

const temp = makeTempDir('repocod-body-dates-');
const repo = join(temp.dir, 'hist');
let catalog: Catalog;
let dated: DatedCheckout;

const OLD = `def steady(x):
    """Doubles x."""
    total = x * 2
    return total


def edited(x):
    """Adds one to x."""
    result = x + 1
    return result
`;

/** Commits the tree as it is, with both git dates set: a history of our own making. */
function commitAt(date: string, message: string): void {
  const env = { ...process.env, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date };
  execFileSync('git', ['add', '-A'], { cwd: repo, env });
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', message], { cwd: repo, env });
}

beforeAll(async () => {
  mkdirSync(join(repo, 'pkg'), { recursive: true });
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: repo });
  writeFileSync(join(repo, 'pkg', 'mod.py'), OLD);
  commitAt('2024-01-10T12:00:00Z', 'both functions');
  writeFileSync(join(repo, 'pkg', 'mod.py'), OLD.replace('result = x + 1', 'result = 1 + x  # commuted'));
  commitAt('2025-08-01T12:00:00Z', 'edited changes after the cutoff');
  const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: repo, encoding: 'utf8' }).trim();
  const at = execFileSync('git', ['log', '-1', '--format=%cI'], { cwd: repo, encoding: 'utf8' }).trim();
  dated = { entry: { name: 'hist' }, checkout: { name: 'hist', path: repo, baseCommit: head, commitTimestamp: at } };
  catalog = await openCatalog(join(temp.dir, 'catalog.duckdb'));
  await extractStep(catalog, { root: repo, repository: 'hist' });
});

afterAll(async () => {
  await catalog.close();
  temp.cleanup();
});

describe('--changed-since over a repository with a history', () => {
  it('keeps the function whose body changed after the cutoff, and stores every date for the next stage', async () => {
    const functions = await catalog.functions('hist');
    const kept = await changedSinceCutoff(catalog, dated, functions, '2025-06-01T00:00:00Z');
    expect(kept.map((fn) => fn.qualname)).toEqual(['edited']);
    const key = { repository: 'hist', baseCommit: dated.checkout.baseCommit, blameArgs: '' };
    const stored = await bodyDates(catalog, dated, functions);
    const byName = new Map(functions.map((fn) => [fn.qualname, stored.get(fn.functionId)]));
    expect(byName.get('steady')?.bodyChangedAt).toEqual(new Date('2024-01-10T12:00:00Z'));
    expect(byName.get('edited')).toMatchObject({
      bodyCommit: dated.checkout.baseCommit,
      bodyChangedAt: new Date('2025-08-01T12:00:00Z'),
    });
    // Under another key (another way of dating) nothing is stored: the rows above are this dating's.
    expect((await catalog.bodyHistory(key)).size).toBe(0);
    // An earlier cutoff keeps both; the dates come from the catalog this time.
    const both = await changedSinceCutoff(catalog, dated, functions, '2023-12-31T00:00:00Z');
    expect(both.map((fn) => fn.qualname).sort()).toEqual(['edited', 'steady']);
  });

  it('refuses a cutoff at or after the base commit, naming the repository and its commit', async () => {
    const error: unknown = await changedSinceCutoff(catalog, dated, [], '2025-09-01T00:00:00Z').catch((e) => e);
    expect(isRepocodError(error) && error.code).toBe('usage');
    expect(String(error)).toContain(`not before the base commit of hist (${dated.checkout.baseCommit.slice(0, 12)}`);
  });

  it('refuses a checkout without history: a snapshot dates every body at the snapshot', async () => {
    const snapshot = join(temp.dir, 'snapshot');
    mkdirSync(snapshot);
    writeFileSync(join(snapshot, 'mod.py'), OLD);
    execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: snapshot });
    execFileSync('git', ['add', '-A'], { cwd: snapshot });
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'snapshot'], {
      cwd: snapshot,
    });
    const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: snapshot, encoding: 'utf8' }).trim();
    const at = execFileSync('git', ['log', '-1', '--format=%cI'], { cwd: snapshot, encoding: 'utf8' }).trim();
    const alone = {
      entry: { name: 'snap' },
      checkout: { name: 'snap', path: snapshot, baseCommit: head, commitTimestamp: at },
    };
    const error: unknown = await changedSinceCutoff(catalog, alone, [], '2024-01-01T00:00:00Z').catch((e) => e);
    expect(isRepocodError(error) && error.code).toBe('usage');
    expect(String(error)).toMatch(/snap at [0-9a-f]{12} has no history .*--source snap=CLONE/);
  });
});
