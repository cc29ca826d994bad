import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { RepocodError } from '@repocod/core';
import { BadReleaseFileError, downloadHubDataset, readParquetRows } from '@repocod/publish';
import type { ReferenceRecord } from '@repocod/reference';
import { formOfRecord, recordsOfJson, recordsOfJsonLines } from '@repocod/reference';

/** Where a reference is read from: a Hub dataset (`hub:ORG/NAME[@REV]`) or a local file or folder. */
export type ReferenceSource =
  | { readonly kind: 'hub'; readonly repo: string; readonly revision: string | null }
  | { readonly kind: 'path'; readonly path: string };

export function parseReferenceSource(text: string): ReferenceSource {
  if (!text.startsWith('hub:')) return { kind: 'path', path: text };
  const match = /^hub:([A-Za-z0-9][\w.-]*\/[\w.-]+)(?:@(.+))?$/.exec(text);
  if (match === null)
    throw new RepocodError(
      'usage',
      `--from ${text}: a Hub dataset is hub:ORG/NAME or hub:ORG/NAME@REVISION (a branch, tag or commit)`,
    );
  return { kind: 'hub', repo: match[1] as string, revision: match[2] ?? null };
}

export interface ReadReferenceSource {
  readonly records: ReferenceRecord[];
  /** The files read (for a Hub dataset, where they were downloaded). */
  readonly files: readonly string[];
  /** The Hub revision asked for, or null. */
  readonly revision: string | null;
  /** The config read (a Hub dataset's, a release folder's version), or null. */
  readonly config: string | null;
}

/**
 * The records of a reference's source. A Hub dataset's config is downloaded (sizes and sha256 checked)
 * into `<downloads>/<ORG>--<NAME>@<REVISION>/`, emptied first, then read as a local folder.
 */
export async function readReferenceSource(
  text: string,
  options: {
    readonly config: string | null;
    readonly downloads: string;
    readonly hubUrl?: string;
    readonly accessToken?: string;
  },
): Promise<ReadReferenceSource> {
  const source = parseReferenceSource(text);
  if (source.kind === 'path')
    return { ...readLocalReferenceSource(source.path, options.config), revision: null, config: options.config };
  const folder = join(options.downloads, `${source.repo.replace('/', '--')}@${source.revision ?? 'main'}`);
  rmSync(folder, { recursive: true, force: true });
  const downloaded = await downloadHubDataset({
    repo: source.repo,
    folder,
    config: options.config,
    ...(source.revision === null ? {} : { revision: source.revision }),
    ...(options.hubUrl === undefined ? {} : { hubUrl: options.hubUrl }),
    ...(options.accessToken === undefined ? {} : { accessToken: options.accessToken }),
  });
  const files = downloaded.files.map((file) => join(folder, file));
  return {
    records: files.flatMap((file) => recordsOfParquet(file)),
    files,
    revision: source.revision,
    config: downloaded.config,
  };
}

/**
 * The records of a local source: a `.jsonl` file (a row per line), a `.json` file (a list of rows, or
 * REPOCOD's objects keyed by repository), a `.parquet` file (a row per table row), or a folder laid out
 * as a release or a Hub dataset (`<config>/test-*.parquet`, else `data/*.parquet`, else its own
 * Parquet files; every shard, in name order). Returns the files read.
 */
export function readLocalReferenceSource(
  path: string,
  config: string | null,
): { readonly records: ReferenceRecord[]; readonly files: readonly string[] } {
  if (!existsSync(path)) throw new RepocodError('path-not-found', `--from ${path}: no such file or folder`);
  if (statSync(path).isDirectory()) {
    const files = parquetFilesOfFolder(path, config);
    return { records: files.flatMap((file) => recordsOfParquet(file)), files };
  }
  if (config !== null)
    throw new RepocodError(
      'usage',
      `--config ${config} names a version of a release folder or a Hub dataset, not of ${path}`,
    );
  if (/\.(jsonl|ndjson)$/i.test(path))
    return { records: recordsOfJsonLines(readFileSync(path, 'utf8'), path), files: [path] };
  if (/\.json$/i.test(path)) {
    let value: unknown;
    try {
      value = JSON.parse(readFileSync(path, 'utf8')) as unknown;
    } catch (error) {
      throw new RepocodError(
        'parse-error',
        `${path}: not JSON (${(error as Error).message}); fix the file or give JSON lines`,
      );
    }
    return { records: recordsOfJson(value, path), files: [path] };
  }
  if (/\.parquet$/i.test(path)) return { records: recordsOfParquet(path), files: [path] };
  throw new RepocodError(
    'usage',
    `--from ${path}: not a source a reference is read from; give a .jsonl, .json or .parquet file, a release folder ` +
      `or ` +
      `hub:ORG/NAME`,
  );
}

/** What to do about a reference's Parquet file that cannot be read. */
const GET_SOURCE_AGAIN = [
  'download it again (`repocod reference add NAME --from hub:ORG/NAME` downloads a Hub dataset afresh) or give',
  'another --from',
].join(' ');

/**
 * A Parquet file's rows as records. A file parquet-wasm cannot read, or none of whose rows is of a form a reference
 * reads, is a BadReleaseFileError naming it (the second rather than a problem per row: the whole file is of another
 * schema).
 */
function recordsOfParquet(file: string): ReferenceRecord[] {
  const read = readParquetRows(file, GET_SOURCE_AGAIN);
  const records = read.rows.map((row, index) => ({ where: `${file}: row ${index + 1}`, value: row }));
  if (records.length > 0 && records.every((record) => formOfRecord(record) === null)) {
    const detail = [
      `its ${records.length} row(s) have ${read.columns.join(', ') || 'no column'}: no function_name, which`,
      "REPOCOD's rows have, nor instance_id or pre_patches, which the seed's have",
    ].join(' ');
    const fix = "give REPOCOD's rows (lt-asset/REPOCOD on the Hub) or a release's (repocod publish writes them)";
    throw new BadReleaseFileError(file, 'wrong-schema', detail, fix);
  }
  return records;
}

function parquetFilesOfFolder(folder: string, config: string | null): string[] {
  const parquet = (directory: string): string[] =>
    existsSync(directory) && statSync(directory).isDirectory()
      ? readdirSync(directory)
          .filter((name) => name.endsWith('.parquet'))
          .sort()
          .map((name) => join(directory, name))
      : [];
  if (config !== null) {
    const files = parquet(join(folder, config));
    if (files.length > 0) return files;
    const configs = readdirSync(folder).filter((name) => parquet(join(folder, name)).length > 0);
    throw new RepocodError(
      'path-not-found',
      `${join(folder, config)}: no Parquet file for --config ${config}; configs in ${folder}: ` +
        `${configs.sort().join(', ') || 'none'}`,
    );
  }
  for (const directory of [join(folder, 'data'), folder]) {
    const files = parquet(directory);
    if (files.length > 0) return files;
  }
  throw new RepocodError(
    'path-not-found',
    `${folder}: no Parquet file in data/ or in ${basename(folder)} itself; name a version with --config`,
  );
}
