import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { downloadHubRelease, hubReleaseCard } from './hub-release.js';
import { failure, folderContents, writeReleaseFixture } from './testing/hub-test-support.js';
import type { LoopbackHub } from '@repocod/testkit';
import { startLoopbackHub } from '@repocod/testkit';
import { pushRelease } from './push-release.js';
import { PARQUET_NAME } from './release-folder.js';

let hub: LoopbackHub;
beforeEach(async () => {
  hub = await startLoopbackHub();
});
afterEach(async () => {
  await hub.close();
});

const emptyFolder = (): string => join(mkdtempSync(join(tmpdir(), 'repocod-download-')), 'release');

async function pushFixture(
  repo: string,
  options: { private?: boolean } = {},
): Promise<{ folder: string; files: string[] }> {
  const release = writeReleaseFixture(['1.0', '1.1']);
  if (options.private === true) hub.addRepo(repo, { private: true });
  await pushRelease({ ...release, repo, hubUrl: hub.url, accessToken: hub.token, commitTitle: 'Release 1.1' });
  return release;
}

describe('hubReleaseCard', () => {
  it('is null when the repository does not exist or has no card', async () => {
    expect(await hubReleaseCard({ repo: 'org/absent', hubUrl: hub.url })).toBeNull();
    hub.addRepo('org/bare', { files: { '.gitattributes': '*.parquet filter=lfs diff=lfs merge=lfs -text\n' } });
    expect(await hubReleaseCard({ repo: 'org/bare', hubUrl: hub.url })).toBeNull();
    hub.addRepo('org/empty');
    expect(await hubReleaseCard({ repo: 'org/empty', hubUrl: hub.url })).toBeNull();
  });

  it('is the README.md the Hub holds, read with the token for a private repository', async () => {
    const { folder } = await pushFixture('org/private', { private: true });
    expect(await hubReleaseCard({ repo: 'org/private', hubUrl: hub.url, accessToken: hub.token })).toBe(
      readFileSync(join(folder, 'README.md'), 'utf8'),
    );
  });

  it('says what failed, with the token masked', async () => {
    hub.addRepo('org/name', { files: { 'README.md': '---\n---\n' } });
    hub.failNext('resolve', 500, 'storage backend unavailable');
    const error = await failure(() => hubReleaseCard({ repo: 'org/name', hubUrl: hub.url, accessToken: hub.token }));
    expect(error.code).toBe('hub-failed');
    expect(error.message).toMatch(
      new RegExp(
        `^reading the dataset card of ${hub.url}/datasets/org/name failed: status 500: storage backend unavailable`,
      ),
    );
    expect(error.message).not.toContain(hub.token);
  });
});

describe('downloadHubRelease', () => {
  it('brings every version the card lists back byte for byte, card last, and then refuses the folder', async () => {
    const pushed = await pushFixture('repocod/demo');
    const folder = emptyFolder();
    const downloaded = await downloadHubRelease({ repo: 'repocod/demo', hubUrl: hub.url, folder });
    expect(downloaded?.versions).toEqual(['1.0', '1.1']);
    // A version's other files (its validation record) come with it.
    expect(downloaded?.files.map((file) => file.path)).toEqual([
      `1.0/${PARQUET_NAME}`,
      `1.1/${PARQUET_NAME}`,
      `data/${PARQUET_NAME}`,
      '1.0/validation.jsonl',
      '1.1/validation.jsonl',
      'README.md',
    ]);
    expect(folderContents(folder)).toEqual(folderContents(pushed.folder));

    const error = await failure(() => downloadHubRelease({ repo: 'repocod/demo', hubUrl: hub.url, folder }));
    expect(error.code).toBe('usage');
    expect(error.message).toContain(`${folder} already holds a release (${join(folder, 'README.md')})`);
    expect(error.message).toContain('versions 1.0, 1.1');
  });

  it('writes nothing when the Hub has no card', async () => {
    const folder = emptyFolder();
    expect(await downloadHubRelease({ repo: 'org/absent', hubUrl: hub.url, folder })).toBeNull();
    expect(existsSync(folder)).toBe(false);
  });

  it('leaves no half file and no card when a download breaks off', async () => {
    await pushFixture('repocod/demo');
    const folder = emptyFolder();
    // The size probe (Range: bytes=0-0) of 1.1 passes; the body fetch after it fails.
    hub.failNext(
      'resolve',
      502,
      'Bad Gateway',
      (request) => request.path.includes('/1.1/') && request.headers.range === undefined,
    );
    const error = await failure(() => downloadHubRelease({ repo: 'repocod/demo', hubUrl: hub.url, folder }));
    expect(error.code).toBe('hub-failed');
    expect(error.message).toContain(`downloading ${hub.url}/datasets/repocod/demo/1.1/${PARQUET_NAME} failed`);
    expect(error.message).toContain(`No half-written file and no README.md were left in ${folder}`);
    expect(Object.keys(folderContents(folder))).toEqual([`1.0/${PARQUET_NAME}`]);

    // The rerun is not refused (no card yet) and completes.
    expect((await downloadHubRelease({ repo: 'repocod/demo', hubUrl: hub.url, folder }))?.versions).toEqual([
      '1.0',
      '1.1',
    ]);
  });

  it('refuses a card whose versions are not all in the repository', async () => {
    const card = readFileSync(join(writeReleaseFixture(['1.0', '1.1']).folder, 'README.md'), 'utf8');
    hub.addRepo('org/broken', {
      files: {
        'README.md': card,
        [`1.1/${PARQUET_NAME}`]: new Uint8Array([1, 2, 3]),
        [`data/${PARQUET_NAME}`]: new Uint8Array([1, 2, 3]),
      },
    });
    const folder = emptyFolder();
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'notes.txt'), 'kept');
    const error = await failure(() => downloadHubRelease({ repo: 'org/broken', hubUrl: hub.url, folder }));
    expect(error.message).toBe(
      `${hub.url}/datasets/org/broken/README.md lists versions 1.0, 1.1 but the repository has no ` +
        `1.0/${PARQUET_NAME}; ` +
        `repair the dataset on the Hub (or publish from the complete local release folder)`,
    );
    expect(Object.keys(folderContents(folder))).toEqual(['notes.txt']);
  });

  it('names a card on the Hub without front matter, and how to repair it, as a usage error', async () => {
    hub.addRepo('org/plain', { files: { 'README.md': '# A dataset\n\nNo header.\n' } });
    const folder = emptyFolder();
    const error = await failure(() => downloadHubRelease({ repo: 'org/plain', hubUrl: hub.url, folder }));
    expect([error.code, error.message]).toEqual([
      'usage',
      [
        `${hub.url}/datasets/org/plain/README.md: not a release card (no YAML front matter, the --- … --- block a card`,
        'starts with); repair the card on the Hub: `repocod publish --push org/plain --out DIR` uploads a whole',
        'release folder',
      ].join(' '),
    ]);
    expect(existsSync(folder)).toBe(false);
  });
});
