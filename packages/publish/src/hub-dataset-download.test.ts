import { readFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LoopbackHub } from '@repocod/testkit';
import { startLoopbackHub } from '@repocod/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dataFilesPattern, datasetConfigsOfCard, downloadHubDataset } from './hub-dataset-download.js';
import { failure, writeReleaseFixture } from './testing/hub-test-support.js';
import { PARQUET_NAME } from './release-folder.js';

let hub: LoopbackHub;
beforeEach(async () => {
  hub = await startLoopbackHub();
});
afterEach(async () => {
  await hub.close();
});

/** The configs of REPOCOD_Lite_Unified's card, as published (../shared/seeds): 1.0, 1.1 and default. */
const SEED_CARD = `---
configs:
- config_name: '1.0'
  data_files:
  - split: test
    path: 1.0/test-*
- config_name: '1.1'
  data_files:
  - split: test
    path: 1.1/test-*
- config_name: default
  data_files:
  - split: test
    path: data/test-*
---
# REPOCOD-Lite
`;

const folder = (): string => mkdtempSync(join(tmpdir(), 'repocod-dataset-'));

function seedLikeDataset(repo: string): Record<string, Uint8Array> {
  const release = writeReleaseFixture(['1.0', '1.1']);
  const bytes = (path: string): Uint8Array => readFileSync(join(release.folder, path));
  const files = {
    'README.md': new TextEncoder().encode(SEED_CARD),
    [`1.0/${PARQUET_NAME}`]: bytes(`1.0/${PARQUET_NAME}`),
    [`1.1/${PARQUET_NAME}`]: bytes(`1.1/${PARQUET_NAME}`),
    [`data/${PARQUET_NAME}`]: bytes(`data/${PARQUET_NAME}`),
  };
  hub.addRepo(repo, { files });
  return files;
}

describe('datasetConfigsOfCard and dataFilesPattern', () => {
  it("reads the seed card's configs, and a card without configs as the default of data/*", () => {
    expect(datasetConfigsOfCard(SEED_CARD, 'README.md')).toEqual([
      { name: '1.0', patterns: ['1.0/test-*'], isDefault: false },
      { name: '1.1', patterns: ['1.1/test-*'], isDefault: false },
      { name: 'default', patterns: ['data/test-*'], isDefault: true },
    ]);
    expect(datasetConfigsOfCard('---\nlicense: mit\n---\n', 'x')).toEqual([
      { name: 'default', patterns: ['data/*'], isDefault: true },
    ]);
    expect(() => datasetConfigsOfCard('---\nconfigs:\n- data_files: x\n---\n', 'org/x/README.md')).toThrow(
      'org/x/README.md: configs[0] has no config_name',
    );
  });

  it('matches * within a path segment and ** across them', () => {
    expect(dataFilesPattern('1.0/test-*').test('1.0/test-00000-of-00001.parquet')).toBe(true);
    expect(dataFilesPattern('1.0/test-*').test('1.0/sub/test-0.parquet')).toBe(false);
    expect(dataFilesPattern('data/**').test('data/a/b.parquet')).toBe(true);
  });
});

describe('downloadHubDataset', () => {
  it("downloads one config's Parquet files byte for byte, the default one without --config", async () => {
    const files = seedLikeDataset('lt-asset/REPOCOD_Lite_Unified');
    const into = folder();
    const one = await downloadHubDataset({
      repo: 'lt-asset/REPOCOD_Lite_Unified',
      hubUrl: hub.url,
      folder: into,
      config: '1.1',
    });
    expect(one).toEqual({ folder: into, config: '1.1', files: [`1.1/${PARQUET_NAME}`] });
    const got = readFileSync(join(into, `1.1/${PARQUET_NAME}`));
    const want = files[`1.1/${PARQUET_NAME}`] as Uint8Array;
    expect(Buffer.from(want).equals(got)).toBe(true);
    const byDefault = await downloadHubDataset({
      repo: 'lt-asset/REPOCOD_Lite_Unified',
      hubUrl: hub.url,
      folder: into,
      config: null,
    });
    expect(byDefault.files).toEqual([`data/${PARQUET_NAME}`]);
    const revision = hub.commits('lt-asset/REPOCOD_Lite_Unified')[0]?.oid;
    expect(revision).toBeDefined();
    const pinned = await downloadHubDataset({
      repo: 'lt-asset/REPOCOD_Lite_Unified',
      hubUrl: hub.url,
      folder: folder(),
      config: '1.0',
      revision: revision as string,
    });
    expect(pinned.files).toEqual([`1.0/${PARQUET_NAME}`]);
  });

  it('names an unknown config with the ones there are, a missing dataset, a revision not there', async () => {
    seedLikeDataset('lt-asset/REPOCOD_Lite_Unified');
    const unknown = await failure(() =>
      downloadHubDataset({ repo: 'lt-asset/REPOCOD_Lite_Unified', hubUrl: hub.url, folder: folder(), config: '2.0' }),
    );
    expect(unknown.message).toBe(
      `${hub.url}/datasets/lt-asset/REPOCOD_Lite_Unified: no config 2.0; its configs are 1.0, 1.1, default (choose ` +
        `one ` +
        `with --config)`,
    );
    const absent = await failure(() =>
      downloadHubDataset({ repo: 'lt-asset/absent', hubUrl: hub.url, folder: folder(), config: null }),
    );
    expect(absent.message).toContain('lt-asset/absent: no such dataset on the Hub, or it has no card');
    const revision = await failure(() =>
      downloadHubDataset({
        repo: 'lt-asset/REPOCOD_Lite_Unified',
        hubUrl: hub.url,
        folder: folder(),
        config: null,
        revision: 'v9',
      }),
    );
    expect(revision.code).toBe('hub-failed');
  });
});
