import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ensureCheckout } from './checkout.js';
import { RUNNER_COMMIT_ENV, git } from './git.js';
import { loadManifest } from './manifest.js';
import type { ManifestEntry } from './manifest.js';

const PROJECT_ROOT = resolve(new URL('../../..', import.meta.url).pathname);

function demoEntry(): ManifestEntry {
  const entry = loadManifest(resolve(PROJECT_ROOT, 'datasets/demo/manifest.yaml')).repositories[0];
  if (entry === undefined) throw new Error('the demo manifest has no repository');
  return entry;
}

/** A real git repository with two commits, standing in for a remote (cloned through a path url). */
async function makeUpstream(): Promise<{ url: string; first: string; second: string }> {
  const url = mkdtempSync(join(tmpdir(), 'repocod-upstream-'));
  await git(url, ['init', '--quiet', '--initial-branch=main']);
  writeFileSync(join(url, 'mod.py'), 'def f():\n    return 1\n');
  await git(url, ['add', '--all']);
  await git(url, ['commit', '--quiet', '-m', 'one'], RUNNER_COMMIT_ENV);
  const first = await git(url, ['rev-parse', 'HEAD']);
  writeFileSync(join(url, 'mod.py'), 'def f():\n    return 2\n');
  await git(url, ['commit', '--quiet', '-am', 'two'], {
    ...RUNNER_COMMIT_ENV,
    GIT_COMMITTER_DATE: '2024-02-03T04:05:06Z',
  });
  const second = await git(url, ['rev-parse', 'HEAD']);
  return { url, first, second };
}

describe('ensureCheckout', () => {
  it('makes the demo a git repository with a deterministic base commit, and keeps it when unchanged', async () => {
    const reposRoot = mkdtempSync(join(tmpdir(), 'repocod-repos-'));
    const first = await ensureCheckout(demoEntry(), { reposRoot, projectRoot: PROJECT_ROOT });
    expect(first.path).toBe(join(reposRoot, 'demo'));
    expect(first.baseCommit).toMatch(/^[0-9a-f]{40}$/);
    expect(first.commitTimestamp).toBe('2024-01-01T00:00:00+00:00');
    expect(await git(first.path, ['ls-files', 'inventory/models.py'])).toBe('inventory/models.py');
    const otherRoot = mkdtempSync(join(tmpdir(), 'repocod-repos-'));
    const again = await ensureCheckout(demoEntry(), { reposRoot: otherRoot, projectRoot: PROJECT_ROOT });
    expect(again.baseCommit).toBe(first.baseCommit);
    expect((await ensureCheckout(demoEntry(), { reposRoot, projectRoot: PROJECT_ROOT })).baseCommit).toBe(
      first.baseCommit,
    );
  });

  it('clones a url at the base commit and records its timestamp', async () => {
    const upstream = await makeUpstream();
    const reposRoot = mkdtempSync(join(tmpdir(), 'repocod-repos-'));
    const entry = {
      ...demoEntry(),
      name: 'up',
      url: upstream.url,
      source: null,
      baseCommit: upstream.first,
    } as ManifestEntry;
    const checkout = await ensureCheckout(entry, { reposRoot, projectRoot: PROJECT_ROOT });
    expect(checkout.baseCommit).toBe(upstream.first);
    expect(await git(checkout.path, ['rev-parse', 'HEAD'])).toBe(upstream.first);
    expect(await git(checkout.path, ['show', 'HEAD:mod.py'])).toContain('return 1');
    const later = await ensureCheckout({ ...entry, baseCommit: upstream.second } as ManifestEntry, {
      reposRoot,
      projectRoot: PROJECT_ROOT,
    });
    expect(later.commitTimestamp).toBe('2024-02-03T04:05:06+00:00');
  });

  it('names a url it cannot clone and the local clone to give instead', async () => {
    const reposRoot = mkdtempSync(join(tmpdir(), 'repocod-repos-'));
    const url = join(mkdtempSync(join(tmpdir(), 'repocod-gone-')), 'absent.git');
    const entry = { ...demoEntry(), name: 'up', url, source: null, baseCommit: 'a'.repeat(40) } as ManifestEntry;
    const failure = ensureCheckout(entry, { reposRoot, projectRoot: PROJECT_ROOT });
    await expect(failure).rejects.toThrow(new RegExp(`^up: could not clone ${url} \\(.*\\); give a local clone`));
    await expect(failure).rejects.toThrow(/--source up=PATH \(and --repo up to curate/);
  });

  it('names a base commit the repository does not have and what to do', async () => {
    const upstream = await makeUpstream();
    const reposRoot = mkdtempSync(join(tmpdir(), 'repocod-repos-'));
    const missing = '0123456789abcdef0123456789abcdef01234567';
    const entry = { ...demoEntry(), name: 'up', url: upstream.url, source: null, baseCommit: missing } as ManifestEntry;
    await expect(ensureCheckout(entry, { reposRoot, projectRoot: PROJECT_ROOT })).rejects.toThrow(
      new RegExp(`up: base commit ${missing} is not in .*--source up=PATH`),
    );
  });
});
