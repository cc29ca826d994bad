import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { isRepocodError } from '@repocod/core';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureCheckout } from './checkout.js';
import { RUNNER_COMMIT_ENV, git } from './git.js';
import { loadManifest } from './manifest.js';
import type { ManifestEntry } from './manifest.js';
import { missingBlobs } from './missing-blobs.js';
import { applyPatches, ensureWorktrees, resetWorktree } from './worktrees.js';
import { findPythonInterpreter } from './python-interpreter.js';

const PROJECT_ROOT = resolve(new URL('../../..', import.meta.url).pathname);
const scratch = mkdtempSync(join(tmpdir(), 'repocod-missing-blobs-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const LARGE = Buffer.from(`${'the bytes a size-limited mirror dropped\n'.repeat(2000)}`);

/** A repository whose commit holds big/data.bin, with that blob deleted from the object store. */
async function clippedRepository(name = 'upstream'): Promise<{ path: string; commit: string; blob: string }> {
  const path = join(scratch, name);
  mkdirSync(join(path, 'big'), { recursive: true });
  writeFileSync(join(path, 'big/data.bin'), LARGE);
  writeFileSync(join(path, 'small.txt'), 'kept\n');
  await git(path, ['init', '--quiet', '--initial-branch=main']);
  await git(path, ['add', '--all']);
  await git(path, ['commit', '--quiet', '--no-gpg-sign', '--message', 'both files'], RUNNER_COMMIT_ENV);
  const commit = await git(path, ['rev-parse', 'HEAD']);
  const blob = await git(path, ['rev-parse', 'HEAD:big/data.bin']);
  unlinkSync(join(path, '.git/objects', blob.slice(0, 2), blob.slice(2)));
  return { path, commit, blob };
}

/** A wheel that ships the dropped bytes under another name, in a folder pip finds it in. */
async function wheelWithTheBytes(): Promise<string> {
  const folder = join(scratch, 'index');
  mkdirSync(folder, { recursive: true });
  const python = await findPythonInterpreter('3');
  const script = [
    'import sys, zipfile',
    'info = "blobsource-1.0.dist-info/"',
    'with zipfile.ZipFile(sys.argv[1], "w") as wheel:',
    '    wheel.writestr("blobsource/renamed.bin", open(sys.argv[2], "rb").read())',
    '    wheel.writestr(info + "METADATA", "Metadata-Version: 2.1\\nName: blobsource\\nVersion: 1.0\\n")',
    '    wheel.writestr(info + "WHEEL", "Wheel-Version: 1.0\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n")',
    '    wheel.writestr(info + "RECORD", "")',
  ].join('\n');
  const bytes = join(scratch, 'bytes.bin');
  writeFileSync(bytes, LARGE);
  execFileSync(python.path, ['-c', script, join(folder, 'blobsource-1.0-py3-none-any.whl'), bytes]);
  return folder;
}

function entryFor(source: string, commit: string, blobsFrom?: readonly string[]): ManifestEntry {
  const demo = loadManifest(resolve(PROJECT_ROOT, 'datasets/demo/manifest.yaml')).repositories[0] as ManifestEntry;
  const entry = { ...demo, name: 'clipped', source, baseCommit: commit };
  return (blobsFrom === undefined ? entry : { ...entry, blobsFrom }) as ManifestEntry;
}

describe('missing blobs', { timeout: 120_000 }, () => {
  it('names the missing file, fills it from a distribution that ships the same bytes, and checks out', async () => {
    const upstream = await clippedRepository();
    expect(await missingBlobs(upstream.path, upstream.commit)).toEqual([{ path: 'big/data.bin', blob: upstream.blob }]);

    const options = { reposRoot: join(scratch, 'repos-a'), projectRoot: PROJECT_ROOT };
    const bare = entryFor(upstream.path, upstream.commit);
    const refused = await ensureCheckout(bare, options).catch((error: unknown) => error);
    expect(isRepocodError(refused) && refused.code).toBe('commit-missing');
    expect(String(refused)).toMatch(/clipped: the clone at .* lacks 1 file\(s\) of the base commit .*: big\/data\.bin/);
    expect(String(refused)).toContain(`big/data.bin (blob ${upstream.blob.slice(0, 12)})`);
    expect(String(refused)).toMatch(/--source NAME=PATH, or name .* \(blobs_from: \["plotly==5\.24\.1"\]\)/);

    const index = await wheelWithTheBytes();
    const saved = { noIndex: process.env.PIP_NO_INDEX, findLinks: process.env.PIP_FIND_LINKS };
    process.env.PIP_NO_INDEX = '1';
    process.env.PIP_FIND_LINKS = index;
    try {
      const logs: string[] = [];
      const entry = entryFor(upstream.path, upstream.commit, ['blobsource==1.0']);
      const onLog = (line: string): number => logs.push(line);
      const options = { reposRoot: join(scratch, 'repos-b'), projectRoot: PROJECT_ROOT, onLog };
      const checkout = await ensureCheckout(entry, options);
      expect(readFileSync(join(checkout.path, 'big/data.bin')).equals(LARGE)).toBe(true);
      const from = 'blobsource-1.0-py3-none-any.whl:blobsource/renamed.bin';
      expect(logs).toEqual([`clipped: big/data.bin taken from ${from} (blob ${upstream.blob.slice(0, 12)})`]);
      expect(await missingBlobs(checkout.path, upstream.commit)).toEqual([]);
    } finally {
      for (const [name, value] of [
        ['PIP_NO_INDEX', saved.noIndex],
        ['PIP_FIND_LINKS', saved.findLinks],
      ] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });

  it('leaves out a file absent_files names (a sparse checkout), in the clone and its worktrees', async () => {
    const upstream = await clippedRepository('upstream-sparse');
    const why = 'only the packaging step reads it';
    const entry = { ...entryFor(upstream.path, upstream.commit), absentFiles: [{ path: 'big/data.bin', why }] };
    const logs: string[] = [];
    const options = {
      reposRoot: join(scratch, 'repos-c'),
      projectRoot: PROJECT_ROOT,
      onLog: (l: string) => logs.push(l),
    };
    const checkout = await ensureCheckout(entry, options);
    expect(existsSync(join(checkout.path, 'big/data.bin'))).toBe(false);
    expect(readFileSync(join(checkout.path, 'small.txt'), 'utf8')).toBe('kept\n');
    expect(logs).toEqual([`clipped: big/data.bin left out (absent_files; blob ${upstream.blob})`]);
    const [worktree] = await ensureWorktrees(checkout, 1, join(scratch, 'worktrees-c'));
    if (worktree === undefined) throw new Error('no worktree');
    expect(existsSync(join(worktree.path, 'big/data.bin'))).toBe(false);
    // A job's patch and the reset after it pass over the left-out file too.
    const patch =
      'diff --git a/small.txt b/small.txt\n--- a/small.txt\n+++ b/small.txt\n@@ -1 +1 @@\n-kept\n+changed\n';
    expect(await applyPatches(worktree, [patch])).toEqual({ ok: true });
    await resetWorktree(worktree);
    expect(readFileSync(join(worktree.path, 'small.txt'), 'utf8')).toBe('kept\n');
    expect(await git(worktree.path, ['status', '--porcelain'])).toBe('');
    // Another file missing that absent_files does not name still stops the checkout, naming it alone.
    const other = { ...entry, absentFiles: [{ path: 'big/other.bin', why }] };
    const refused = await ensureCheckout(other, { ...options, reposRoot: join(scratch, 'repos-d') }).catch((e) => e);
    expect(String(refused)).toMatch(/lacks 1 file\(s\) of the base commit .*: big\/data\.bin/);
    expect(String(refused)).toContain('absent_files');
  });
});
