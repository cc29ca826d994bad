import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IN_MEMORY, openCatalog } from '@repocod/catalog';
import type { RepocodError } from '@repocod/core';
import { BadReleaseFileError } from '@repocod/publish';
import { readReferenceRows } from '@repocod/reference';
import type { LoopbackHub } from '@repocod/testkit';
import { startLoopbackHub, truncateToHalf } from '@repocod/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseReferenceSource, readReferenceSource } from './reference-source.js';

const dir = mkdtempSync(join(tmpdir(), 'repocod-reference-source-'));
const parquet = join(dir, 'repocod.parquet');
let hub: LoopbackHub;

beforeAll(async () => {
  // REPOCOD's form as Parquet, written by DuckDB: repo_id an integer column, as a dataset may have it.
  const catalog = await openCatalog(IN_MEMORY);
  await catalog.query(
    `COPY (SELECT * FROM (VALUES ('seaborn', 28, 'seaborn/axisgrid.py', 'axisgrid.PairGrid.__init__'),
                                 ('flask', 3, 'src/flask/app.py', 'Flask.run'))
             AS t(repository, repo_id, target_module_path, function_name))
       TO '${parquet}' (FORMAT parquet)`,
  );
  await catalog.close();
  hub = await startLoopbackHub();
});
afterAll(async () => {
  await hub.close();
});

async function failure(run: () => unknown): Promise<RepocodError> {
  try {
    await run();
  } catch (error) {
    return error as RepocodError;
  }
  throw new Error('expected an error');
}

const local = { config: null, downloads: join(dir, 'downloads') };

describe('readReferenceSource', () => {
  it('reads Parquet, JSON lines and a release-like folder, naming each record by its row or line', async () => {
    const rows = await readReferenceSource(parquet, local);
    expect(rows.records.map((record) => record.where)).toEqual([`${parquet}: row 1`, `${parquet}: row 2`]);
    const read = readReferenceRows(rows.records);
    expect(read.rows.map((row) => [row.repository, row.repoId, row.functionName])).toEqual([
      ['seaborn', '28', 'axisgrid.PairGrid.__init__'],
      ['flask', '3', 'Flask.run'],
    ]);
    const lines = join(dir, 'rows.jsonl');
    writeFileSync(lines, '{"repository":"flask","function_name":"url_for"}\n\n{"repository":"flask"}\n');
    expect((await readReferenceSource(lines, local)).records.map((record) => record.where)).toEqual([
      `${lines}:1`,
      `${lines}:3`,
    ]);
    const release = join(dir, 'release');
    mkdirSync(join(release, '1.1'), { recursive: true });
    writeFileSync(join(release, '1.1', 'test-00000-of-00001.parquet'), readFileSync(parquet));
    const folder = await readReferenceSource(release, { ...local, config: '1.1' });
    expect(folder).toMatchObject({
      config: '1.1',
      revision: null,
      files: [join(release, '1.1/test-00000-of-00001.parquet')],
    });
    expect(folder.records).toHaveLength(2);
  });

  it('names what it cannot read: a missing path, a file of no kind it reads, bad JSON, a config it lacks', async () => {
    expect((await failure(() => readReferenceSource(join(dir, 'absent.json'), local))).message).toBe(
      `--from ${join(dir, 'absent.json')}: no such file or folder`,
    );
    const csv = join(dir, 'rows.csv');
    writeFileSync(csv, 'a,b\n');
    expect((await failure(() => readReferenceSource(csv, local))).message).toContain(
      'give a .jsonl, .json or .parquet file',
    );
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{"sphinx": ');
    expect((await failure(() => readReferenceSource(bad, local))).message).toMatch(new RegExp(`^${bad}: not JSON \\(`));
    expect(
      (await failure(() => readReferenceSource(join(dir, 'release'), { ...local, config: '9.9' }))).message,
    ).toContain('no Parquet file for --config 9.9; configs in');
    expect(() => parseReferenceSource('hub:not a repo')).toThrow('a Hub dataset is hub:ORG/NAME');
  });

  it('names a Parquet file it cannot read, and one of no form it reads, each as a usage error', async () => {
    const truncated = join(dir, 'truncated.parquet');
    writeFileSync(truncated, readFileSync(parquet));
    truncateToHalf(truncated);
    const unreadable = await failure(() => readReferenceSource(truncated, local));
    expect(unreadable).toBeInstanceOf(BadReleaseFileError);
    expect([unreadable.code, (unreadable as BadReleaseFileError).problem]).toEqual(['usage', 'corrupt-parquet']);
    expect(unreadable.message).toMatch(
      new RegExp(`^${truncated}: not a readable Parquet file \\(\\d+ bytes that do not end with Parquet's PAR1 mark`),
    );
    expect(unreadable.message).toContain('; download it again (`repocod reference add NAME --from hub:ORG/NAME`');
    // Scores of a model, not tasks: written by DuckDB, as another tool would.
    const scores = join(dir, 'scores.parquet');
    const catalog = await openCatalog(IN_MEMORY);
    await catalog.query(
      `COPY (SELECT * FROM (VALUES ('m', 0.5), ('n', 0.25)) AS t(model, score)) TO '${scores}' (FORMAT parquet)`,
    );
    await catalog.close();
    const other = await failure(() => readReferenceSource(scores, local));
    expect([other.code, (other as BadReleaseFileError).problem]).toEqual(['usage', 'wrong-schema']);
    expect(other.message).toBe(
      [
        `${scores}: rows of another schema (its 2 row(s) have model, score: no function_name, which REPOCOD's rows`,
        "have, nor instance_id or pre_patches, which the seed's have); give REPOCOD's rows (lt-asset/REPOCOD on the",
        "Hub) or a release's (repocod publish writes them)",
      ].join(' '),
    );
  });

  it('downloads a Hub dataset (the loopback Hub) and reads its default config, at a revision', async () => {
    hub.addRepo('lt-asset/REPOCOD', {
      files: {
        'README.md': '---\nlicense: mit\n---\n# REPOCOD\n',
        'data/test-00000-of-00001.parquet': readFileSync(parquet),
      },
    });
    const revision = hub.commits('lt-asset/REPOCOD')[0]?.oid as string;
    const read = await readReferenceSource(`hub:lt-asset/REPOCOD@${revision}`, { ...local, hubUrl: hub.url });
    expect(read).toMatchObject({ revision, config: 'default' });
    expect(read.files).toEqual([
      join(local.downloads, `lt-asset--REPOCOD@${revision}`, 'data/test-00000-of-00001.parquet'),
    ]);
    expect(readReferenceRows(read.records).rows.map((row) => row.functionName)).toEqual([
      'axisgrid.PairGrid.__init__',
      'Flask.run',
    ]);
  });
});
