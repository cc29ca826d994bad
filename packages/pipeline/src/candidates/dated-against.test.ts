import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Catalog, CatalogFunction } from '@repocod/catalog';
import { openCatalog } from '@repocod/catalog';
import type { Checkout, ManifestEntry } from '@repocod/runner';
import { ensureCheckout, NotAPythonSdistError } from '@repocod/runner';
import { makeReleaseSdists, RELEASE_FUNCTIONS, type ReleaseSdists } from '@repocod/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listRepositories } from '../steps/find-repository.js';
import { extractStep } from '../steps/extract.js';
import { makeTempDir } from '../testing/test-support.js';
import { bodyDates, changedSinceCutoff, storedDating } from './body-dates.js';
import { type DatedAgainstOptions, releaseDatings } from './dated-against.js';
import {
  DatedAgainstHistoryError,
  DatedAgainstNotBuiltError,
  OtherProjectReleaseError,
  ReleaseNotBeforeCutoffError,
  SnapshotNotAfterCutoffError,
} from './dated-against-errors.js';

// The two releases of the test kit's package are sdists made here (tar, PKG-INFO), 1.0 in 2024 and 1.1 in 2026; the
// repository's source is 1.1 unpacked, snapshotted as the stand-in for a commit that cannot be cloned, as
// scikit-learn's is.
const temp = makeTempDir('repocod-dated-against-');
const CUTOFF = '2025-06-01T00:00:00Z';
const OLDER_AT = '2024-03-01T10:00:00Z';
const NEWER_AT = '2026-02-01T10:00:00Z';
let sdists: ReleaseSdists;
let manifest: string;
let source: string;
let catalog: Catalog;
let checkout: Checkout;
let candidates: CatalogFunction[];

/** The manifest's entries with --source given: the stand-in folder unless another one is named. */
function entries(sources = [`tinypkg=${source}`]): ManifestEntry[] {
  return listRepositories({ projectRoot: temp.dir, manifest, sources });
}

function datingOptions(overrides: Partial<DatedAgainstOptions> = {}): DatedAgainstOptions {
  return {
    specs: [`tinypkg=${sdists.older.archive}`],
    cutoff: CUTOFF,
    entries: entries(),
    building: ['tinypkg'],
    projectRoot: temp.dir,
    stateRoot: join(temp.dir, 'state'),
    ...overrides,
  };
}

function refusal(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a refusal');
}

beforeAll(async () => {
  sdists = makeReleaseSdists(join(temp.dir, 'releases'), OLDER_AT, NEWER_AT);
  // The curator unpacks the newer sdist (tar keeps its files' times: its release date) and gives it with --source.
  mkdirSync(join(temp.dir, 'stand-in'));
  execFileSync('tar', ['-xzf', sdists.newer.archive, '-C', join(temp.dir, 'stand-in')]);
  source = join(temp.dir, 'stand-in', 'tinypkg-1.1');
  manifest = join(temp.dir, 'manifest.yaml');
  writeFileSync(
    manifest,
    [
      'repositories:',
      '  - name: tinypkg',
      '    url: https://example.invalid/tinypkg.git',
      `    base_commit: ${'a'.repeat(40)}`,
      '    python: "3.11"',
      '    install: []',
      '    test_roots: [tests]',
      '',
    ].join('\n'),
  );
  const [entry] = entries();
  checkout = await ensureCheckout(entry as ManifestEntry, {
    reposRoot: join(temp.dir, 'repos'),
    projectRoot: temp.dir,
  });
  catalog = await openCatalog(join(temp.dir, 'catalog.duckdb'));
  await extractStep(catalog, { root: checkout.path, repository: 'tinypkg' });
  candidates = await catalog.functions('tinypkg', { candidatesOnly: true });
}, 120_000);

afterAll(async () => {
  await catalog?.close();
  temp.cleanup();
});

describe('--changed-since over a stand-in dated by release diff (--dated-against)', () => {
  it('keeps the bodies changed or added since the older release, and stores how they were dated', async () => {
    expect(candidates.map((fn) => fn.qualname).sort()).toEqual(
      ['Tally.bump', 'edited', 'fresh', 'reflowed', 'steady'].sort(),
    );
    const datings = releaseDatings(datingOptions());
    const prepared = { entry: { name: 'tinypkg' }, checkout };
    const kept = await changedSinceCutoff(catalog, prepared, candidates, CUTOFF, datings);
    expect(kept.map((fn) => fn.qualname).sort()).toEqual([RELEASE_FUNCTIONS.changed, RELEASE_FUNCTIONS.added].sort());
    const dates = await bodyDates(catalog, prepared, candidates, datings?.get('tinypkg'));
    const byName = new Map(candidates.map((fn) => [fn.qualname, dates.get(fn.functionId)]));
    for (const name of [RELEASE_FUNCTIONS.changed, RELEASE_FUNCTIONS.added])
      expect(byName.get(name)).toMatchObject({
        bodyCommit: 'release-diff:1.0..1.1',
        bodyChangedAt: new Date(NEWER_AT),
      });
    // Re-indented, respaced, a comment and a blank line added; a docstring alone changed: the same code as in 1.0.
    for (const name of [RELEASE_FUNCTIONS.unchanged, RELEASE_FUNCTIONS.reformatted, RELEASE_FUNCTIONS.documented])
      expect(byName.get(name)).toMatchObject({ bodyCommit: 'release-diff:..1.0', bodyChangedAt: new Date(OLDER_AT) });
    const against = datings?.get('tinypkg')?.against;
    expect(await storedDating(catalog, 'tinypkg', checkout.baseCommit)).toEqual({
      kind: 'release-diff',
      against: { version: '1.0', releasedAt: OLDER_AT, sha256: against?.sha256 },
      release: { version: '1.1', releasedAt: NEWER_AT },
    });
    expect(against?.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('refuses an older release that is not before the cutoff, naming both dates, and stores nothing', async () => {
    const late = makeReleaseSdists(join(temp.dir, 'late'), '2025-06-01T00:00:00Z', NEWER_AT);
    const error = refusal(() => releaseDatings(datingOptions({ specs: [`tinypkg=${late.older.archive}`] })));
    expect(error).toBeInstanceOf(ReleaseNotBeforeCutoffError);
    expect(error).toMatchObject({
      code: 'usage',
      repository: 'tinypkg',
      cutoff: CUTOFF,
      against: { version: '1.0', releasedAt: '2025-06-01T00:00:00Z', given: late.older.archive },
    });
    expect(String(error)).toContain(`--dated-against tinypkg=${late.older.archive}: tinypkg 1.0 was released`);
    expect(String(error)).toContain(`2025-06-01T00:00:00Z (its sdist's newest file), not before --changed-since`);
    // The stage itself refuses it too, before anything is dated: the rows stored above stay as they were.
    const before = await catalog.bodyHistoryDatings('tinypkg', checkout.baseCommit);
    const datings = releaseDatings(datingOptions());
    const prepared = { entry: { name: 'tinypkg' }, checkout };
    const refused = await changedSinceCutoff(catalog, prepared, candidates, '2024-01-01T00:00:00Z', datings).catch(
      (thrown: unknown) => thrown,
    );
    expect(refused).toBeInstanceOf(ReleaseNotBeforeCutoffError);
    expect(await catalog.bodyHistoryDatings('tinypkg', checkout.baseCommit)).toEqual(before);
  });

  it('refuses a source released on or before the cutoff: nothing in it changed after', () => {
    const error = refusal(() => releaseDatings(datingOptions({ cutoff: '2026-03-01T00:00:00Z' })));
    expect(error).toBeInstanceOf(SnapshotNotAfterCutoffError);
    expect(error).toMatchObject({ repository: 'tinypkg', release: { version: '1.1', releasedAt: NEWER_AT } });
  });

  it('refuses an older release that is not a Python sdist, or is of another project', () => {
    for (const [given, problem] of [
      [sdists.older.folder, 'not-a-tar-gz'],
      [join(temp.dir, 'tinypkg-0.9.tar.gz'), 'missing'],
    ] as const) {
      const error = refusal(() => releaseDatings(datingOptions({ specs: [`tinypkg=${given}`] })));
      expect(error).toBeInstanceOf(NotAPythonSdistError);
      expect(error).toMatchObject({ code: 'usage', flag: '--dated-against', repository: 'tinypkg', problem });
    }
    // An sdist of another project: 1.0's files under another PKG-INFO name.
    const other = join(temp.dir, 'other', 'otherpkg-1.0');
    cpSync(sdists.older.folder, other, { recursive: true });
    writeFileSync(join(other, 'PKG-INFO'), 'Metadata-Version: 2.1\nName: otherpkg\nVersion: 1.0\n');
    const archive = join(temp.dir, 'otherpkg-1.0.tar.gz');
    execFileSync('tar', ['-czf', archive, '-C', join(temp.dir, 'other'), 'otherpkg-1.0']);
    const error = refusal(() => releaseDatings(datingOptions({ specs: [`tinypkg=${archive}`] })));
    expect(error).toBeInstanceOf(OtherProjectReleaseError);
    expect(error).toMatchObject({ repository: 'tinypkg', project: 'tinypkg', againstProject: 'otherpkg' });
    expect(String(error)).toContain('it is a release of otherpkg');
  });

  it('refuses --dated-against for a source with history, a repository not built, or without a cutoff', () => {
    const clone = refusal(() => releaseDatings(datingOptions({ entries: entries([`tinypkg=${checkout.path}`]) })));
    expect(clone).toBeInstanceOf(DatedAgainstHistoryError);
    expect(clone).toMatchObject({ repository: 'tinypkg', source: checkout.path });
    const url = refusal(() => releaseDatings(datingOptions({ entries: entries([]) })));
    expect(url).toMatchObject({ name: 'DatedAgainstHistoryError', source: 'https://example.invalid/tinypkg.git' });
    const other = refusal(() => releaseDatings(datingOptions({ building: ['flask'] })));
    expect(other).toBeInstanceOf(DatedAgainstNotBuiltError);
    expect(String(refusal(() => releaseDatings(datingOptions({ cutoff: undefined }))))).toContain(
      'dates bodies for --changed-since DATE',
    );
    expect(String(refusal(() => releaseDatings(datingOptions({ specs: ['tinypkg=1.0'] }))))).toContain(
      'pip download --no-deps --no-binary :all: tinypkg==1.0',
    );
    expect(releaseDatings(datingOptions({ specs: [] }))).toBeUndefined();
  });
});
