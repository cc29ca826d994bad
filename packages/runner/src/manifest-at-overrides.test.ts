import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { isRepocodError } from '@repocod/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkoutAtResolver } from './at-resolver.js';
import { ensureCheckout } from './checkout.js';
import { git } from './git.js';
import { type Manifest, type ManifestEntry, parseManifest } from './manifest.js';
import { applyAtOverrides, parseAtOverrides } from './manifest-at-overrides.js';
import { catalogName } from './catalog-name.js';
import { applySourceOverrides } from './manifest-overrides.js';
import { resolutionDate } from './resolution-date.js';
import { addCommit, type DatedHistory, makeDatedHistory } from './testing/dated-commits.js';

const PROJECT_ROOT = resolve(new URL('../../..', import.meta.url).pathname);

let upstream: DatedHistory;
let manifest: Manifest;

/** datasets/demo's shape: `demo` from a folder (here a clone), `up` from a url pinned at its first commit. */
function demoShapedManifest(source: string, url: string, baseCommit: string): Manifest {
  const common = ['    python: "3.11"', '    install:', '      - pip: ["pytest==8.3.5"]', '    test_roots: [tests]'];
  return parseManifest(
    [
      'repositories:',
      '  - name: demo',
      `    source: ${source}`,
      ...common,
      '  - name: up',
      `    url: file://${url}`,
      `    base_commit: ${baseCommit}`,
      '    exclude_newer: "2024-01-15"',
      ...common,
    ].join('\n'),
    'my-manifest.yaml',
  );
}

beforeAll(async () => {
  upstream = await makeDatedHistory([
    { files: { 'mod.py': 'x = 0\n' }, committedAt: '2024-01-10T12:00:00Z', tag: 'v1.0' },
    { files: { 'mod.py': 'x = 1\n' }, committedAt: '2024-02-01T09:00:00Z' },
    { files: { 'mod.py': 'x = 2\n' }, committedAt: '2024-03-01T09:00:00Z', tag: 'v2.0' },
  ]);
  manifest = demoShapedManifest(upstream.path, upstream.path, upstream.commits[0] ?? '');
});

const c = (index: number): string => upstream.commits[index] ?? '';
function entryOf(of: Manifest, name: string): ManifestEntry {
  const entry = of.repositories.find((candidate) => candidate.name === name);
  if (entry === undefined) throw new Error(`no ${name} in ${of.file}`);
  return entry;
}
const reposRoot = (): string => mkdtempSync(join(tmpdir(), 'repocod-repos-'));

async function refusal(run: () => Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await run();
  } catch (error) {
    if (isRepocodError(error)) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error('expected a RepocodError');
}

describe('parseAtOverrides', () => {
  it('reads NAME=REF, and refuses a malformed option, an unknown repository, one given twice and a bad spec', () => {
    expect(parseAtOverrides(manifest, ['up=HEAD', 'demo=2024-02-15'])).toEqual([
      { name: 'up', spec: 'HEAD', label: '--at up=HEAD' },
      { name: 'demo', spec: '2024-02-15', label: '--at demo=2024-02-15' },
    ]);
    const thrown = (ats: string[]): { code: string; message: string } => {
      try {
        parseAtOverrides(manifest, ats);
      } catch (error) {
        if (isRepocodError(error)) return { code: error.code, message: error.message };
      }
      throw new Error('expected a RepocodError');
    };
    expect(thrown(['up'])).toEqual({
      code: 'usage',
      message:
        '--at "up" must look like NAME=REF (a commit, tag, branch, HEAD, or a day YYYY-MM-DD), e.g. --at flask=HEAD',
    });
    expect(thrown(['dem=HEAD'])).toEqual({
      code: 'usage',
      message: '--at dem=HEAD: no repository named "dem" in my-manifest.yaml (did you mean "demo"?) (known: demo, up)',
    });
    expect(thrown(['up=HEAD', 'up=v1.0']).message).toBe(
      '--at up=v1.0: "up" is already taken at HEAD; give one --at per repository',
    );
    expect(thrown(['up=a..b']).code).toBe('ref-malformed');
  });
});

describe('applyAtOverrides with the runner resolver', () => {
  it("gives a local clone's entry the commit its REF names, and leaves the others as they are", async () => {
    const applied = await applyAtOverrides(
      manifest,
      ['demo=v1.0'],
      checkoutAtResolver({ reposRoot: reposRoot(), projectRoot: PROJECT_ROOT }),
    );
    // The demo's manifest names no commit (its folder's state): any commit is another era (catalog-name.ts).
    expect(applied.manifest.repositories[0]).toEqual({
      ...manifest.repositories[0],
      baseCommit: c(0),
      manifestCommit: null,
    });
    expect(applied.manifest.repositories[1]).toBe(manifest.repositories[1]);
    expect(applied.resolved.get('demo')).toEqual({
      commit: c(0),
      committedAt: '2024-01-10T12:00:00Z',
      describedAs: 'tag v1.0',
    });
    expect(
      await applyAtOverrides(manifest, [], checkoutAtResolver({ reposRoot: reposRoot(), projectRoot: PROJECT_ROOT })),
    ).toEqual({
      manifest,
      resolved: new Map(),
    });
  });

  it("moves a url's entry to the remote's newest commit: fetched, checked out, its packages dated by it", async () => {
    const options = { reposRoot: reposRoot(), projectRoot: PROJECT_ROOT };
    const resolver = checkoutAtResolver(options);
    // The runner's clone exists already, made at the pinned commit; HEAD is then read on the remote after a fetch.
    const pinned = await ensureCheckout(entryOf(manifest, 'up'), options);
    expect(pinned.baseCommit).toBe(c(0));
    const newest = await addCommit(upstream.path, {
      files: { 'mod.py': 'x = 3\n' },
      committedAt: '2024-04-02T09:00:00Z',
    });
    const applied = await applyAtOverrides(manifest, ['up=HEAD'], resolver);
    const entry = entryOf(applied.manifest, 'up');
    const { excludeNewer: _pinnedForTheOldCommit, ...rest } = entryOf(manifest, 'up');
    expect(entry).toEqual({ ...rest, baseCommit: newest, manifestCommit: c(0) });
    expect(catalogName(entry)).toBe(`up@${newest.slice(0, 12)}`);
    expect(applied.resolved.get('up')?.describedAs).toBe('HEAD of origin/main');
    // The era's working copy is its own, cloned from the project's clone; the pinned one stays where it was.
    const checkout = await ensureCheckout(entry, options);
    expect([checkout.name, checkout.path, checkout.baseCommit]).toEqual([
      catalogName(entry),
      join(options.reposRoot, catalogName(entry)),
      newest,
    ]);
    expect(await git(checkout.path, ['rev-parse', 'HEAD'])).toBe(newest);
    expect(await git(pinned.path, ['rev-parse', 'HEAD'])).toBe(c(0));
    expect(resolutionDate(entry.excludeNewer, entry.baseCommit, checkout.commitTimestamp)).toBe('2024-04-02T09:00:00Z');
    // A day between two commits, through the same clone.
    const day = await applyAtOverrides(manifest, ['up=2024-02-15'], resolver);
    expect(day.manifest.repositories[1]?.baseCommit).toBe(c(1));
    // --at naming the manifest's own commit leaves the entry the manifest's build, under its own name.
    const same = await applyAtOverrides(manifest, ['up=v1.0'], resolver);
    expect(same.manifest.repositories[1]).toBe(manifest.repositories[1]);
    expect(catalogName(entryOf(same.manifest, 'up'))).toBe('up');
  });

  it("finds an era's commit in its working copy when the url cannot be reached (a flow's other era)", async () => {
    const options = { reposRoot: reposRoot(), projectRoot: PROJECT_ROOT };
    const applied = await applyAtOverrides(manifest, [`up=${c(2)}`], checkoutAtResolver(options));
    const built = await ensureCheckout(entryOf(applied.manifest, 'up'), options);
    expect(built.path).toBe(join(options.reposRoot, `up@${c(2).slice(0, 12)}`));
    const up = { ...entryOf(manifest, 'up'), url: 'file:///nowhere/up' } as ManifestEntry;
    const offline: Manifest = { ...manifest, repositories: [entryOf(manifest, 'demo'), up] };
    const again = await applyAtOverrides(offline, [`up=${c(2).slice(0, 12)}`], checkoutAtResolver(options));
    const entry = entryOf(again.manifest, 'up');
    expect(entry.baseCommit).toBe(c(2));
    expect((await ensureCheckout(entry, options)).path).toBe(built.path);
    // Not an era's commit: the url is asked, and its failure is named.
    const head = await refusal(() => applyAtOverrides(offline, ['up=HEAD'], checkoutAtResolver(options)));
    expect(head.code).toBe('git-failed');
  });

  it('reads a --source clone in place: HEAD is the branch checked out there', async () => {
    const clone = join(mkdtempSync(join(tmpdir(), 'repocod-mine-')), 'up');
    await git(tmpdir(), ['clone', '--quiet', upstream.path, clone]);
    await git(clone, ['checkout', '--quiet', '-b', 'older', 'v2.0']);
    const sourced = applySourceOverrides(manifest, [`up=${clone}`]);
    const applied = await applyAtOverrides(
      sourced,
      ['up=HEAD'],
      checkoutAtResolver({ reposRoot: reposRoot(), projectRoot: PROJECT_ROOT }),
    );
    expect(applied.manifest.repositories[1]).toMatchObject({ url: null, source: clone, baseCommit: c(2) });
    expect(applied.resolved.get('up')?.describedAs).toBe('HEAD of older');
  });

  it('names what cannot be resolved: an unknown ref, a future day, a folder without history', async () => {
    const resolver = checkoutAtResolver({ reposRoot: reposRoot(), projectRoot: PROJECT_ROOT });
    const unknown = await refusal(() => applyAtOverrides(manifest, ['demo=v3.0'], resolver));
    expect(unknown.code).toBe('ref-not-found');
    expect(
      unknown.message.startsWith(
        `--at demo=v3.0: no commit, tag or branch "v3.0" in ${upstream.path} (near: v1.0, v2.0)`,
      ),
    ).toBe(true);
    const future = await refusal(() => applyAtOverrides(manifest, ['demo=2999-01-01'], resolver));
    expect(future.code).toBe('date-in-future');
    const demo = parseManifest(
      'repositories:\n  - {name: demo, source: datasets/demo, python: "3.11", install: [], test_roots: [tests]}',
      'datasets/demo/manifest.yaml',
    );
    expect(await refusal(() => applyAtOverrides(demo, ['demo=HEAD'], resolver))).toEqual({
      code: 'usage',
      message:
        `--at demo=HEAD: demo is taken from ${join(PROJECT_ROOT, 'datasets/demo')}, which is not a git ` +
        `repository, so it has no commits to choose from; give a clone with --source demo=PATH`,
    });
    const sdist = mkdtempSync(join(tmpdir(), 'repocod-sdist-'));
    mkdirSync(join(sdist, 'pkg'));
    writeFileSync(join(sdist, 'pkg/__init__.py'), '');
    const standIn = applySourceOverrides(manifest, [`up=${sdist}`]);
    const refused = await refusal(() => applyAtOverrides(standIn, ['up=HEAD'], resolver));
    expect(refused.code).toBe('usage');
    expect(refused.message).toContain('which is not a git repository (a stand-in for');
    expect(refused.message).toContain('leave out --at up to build it as it is');
  });
});
