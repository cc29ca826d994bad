import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tableFromIPC, tableToIPC } from 'apache-arrow';
import { readParquet } from 'parquet-wasm';
import { RepocodError } from '@repocod/core';
import type { ConfigInfo } from './dataset-card.js';
import { cardFrontMatter, configsOfCard } from './dataset-card.js';
import type { ReleaseRow } from './release-table.js';
import { releaseParquet, releaseTable } from './release-table.js';

/** The one Parquet file of a split, named as the Hub names them. */
export const PARQUET_NAME = 'test-00000-of-00001.parquet';

export interface VersionDiff {
  readonly previous: string;
  readonly added: readonly string[];
  readonly removed: readonly string[];
  /** Same instance id, other content (patches, statements, tests …). */
  readonly changed: readonly string[];
}

export interface WrittenRelease {
  readonly folder: string;
  readonly version: string;
  readonly configs: readonly ConfigInfo[];
  /** Every file of the release folder, relative to it: what a push uploads. */
  readonly files: readonly string[];
  readonly diff: VersionDiff | null;
}

/**
 * Writes a version into a release folder laid out as the Hub wants it: `<version>/test-…parquet`,
 * `data/test-…parquet` (the default config, this version) and README.md (front matter for every
 * version, then `body`). Earlier versions found in the folder's card stay as they are: a version is
 * never rewritten. The new files are written before the card, each through a temporary file, so a
 * failure leaves the previous release whole.
 */
export function writeRelease(folder: string, version: string, rows: readonly ReleaseRow[], body: string): WrittenRelease {
  if (!/^[\w.-]+$/.test(version) || version === 'data' || version === 'default') {
    throw new RepocodError('usage', `--version ${version}: use letters, digits, dots, dashes or underscores (not "data" or "default")`);
  }
  const cardPath = join(folder, 'README.md');
  const earlier = existsSync(cardPath) ? configsOfCard(readFileSync(cardPath, 'utf8'), cardPath) : [];
  if (earlier.some((config) => config.version === version)) {
    throw new RepocodError('usage', `${folder}: version ${version} is already released there (${earlier.map((config) => config.version).join(', ')}); versions are never rewritten: choose a new --version`);
  }
  for (const config of earlier) {
    if (!existsSync(join(folder, config.version, PARQUET_NAME))) {
      throw new RepocodError('path-not-found', `${cardPath} lists version ${config.version} but ${join(folder, config.version, PARQUET_NAME)} is missing; restore the earlier release folder (or download it from the Hub) before adding a version`);
    }
  }
  const table = releaseTable(rows);
  const parquet = releaseParquet(table);
  const config: ConfigInfo = { version, numBytes: tableToIPC(table, 'stream').byteLength, numExamples: rows.length, downloadSize: parquet.byteLength };
  const previous = earlier.at(-1);
  const diff = previous === undefined ? null : versionDiff(previous.version, readReleaseRows(join(folder, previous.version, PARQUET_NAME)), rows);
  writeAtomically(join(folder, version, PARQUET_NAME), parquet);
  writeAtomically(join(folder, 'data', PARQUET_NAME), parquet);
  const configs = [...earlier, config];
  writeAtomically(cardPath, `${cardFrontMatter(configs, version)}\n${body}`);
  return {
    folder,
    version,
    configs,
    files: ['README.md', join('data', PARQUET_NAME), ...configs.map((item) => join(item.version, PARQUET_NAME))],
    diff,
  };
}

/** The rows of a release Parquet file, as plain objects keyed by the seed's column names. */
export function readReleaseRows(file: string): Record<string, unknown>[] {
  const table = tableFromIPC(readParquet(readFileSync(file)).intoIPCStream());
  return table.toArray().map((row: { toJSON(): Record<string, unknown> }) => JSON.parse(JSON.stringify(row.toJSON())) as Record<string, unknown>);
}

function versionDiff(previous: string, before: readonly Record<string, unknown>[], after: readonly ReleaseRow[]): VersionDiff {
  const content = (row: object): string => JSON.stringify({ ...row, version: undefined });
  const old = new Map(before.map((row) => [String(row['instance_id']), row]));
  const now = new Map(after.map((row) => [row.instance_id, row]));
  const normalised = (row: ReleaseRow): object => ({
    instance_id: row.instance_id,
    gold_patches: row.gold_patches,
    pre_patches: row.pre_patches,
    repo: row.repo,
    base_commit: row.base_commit,
    base_commit_timestamp: row.base_commit_timestamp,
    problem_statement: row.problem_statement,
    environment_setup_commit: row.environment_setup_commit,
    FAIL_TO_PASS: [...row.FAIL_TO_PASS],
  });
  const stored = (row: Record<string, unknown>): object => ({
    instance_id: row['instance_id'],
    gold_patches: row['gold_patches'],
    pre_patches: row['pre_patches'],
    repo: row['repo'],
    base_commit: row['base_commit'],
    base_commit_timestamp: row['base_commit_timestamp'],
    problem_statement: row['problem_statement'],
    environment_setup_commit: row['environment_setup_commit'],
    FAIL_TO_PASS: (row['evaluation'] as { FAIL_TO_PASS?: unknown } | undefined)?.FAIL_TO_PASS ?? [],
  });
  return {
    previous,
    added: [...now.keys()].filter((id) => !old.has(id)).sort(),
    removed: [...old.keys()].filter((id) => !now.has(id)).sort(),
    changed: [...now.entries()]
      .filter(([id, row]) => {
        const was = old.get(id);
        return was !== undefined && content(stored(was)) !== content(normalised(row));
      })
      .map(([id]) => id)
      .sort(),
  };
}

function writeAtomically(path: string, data: Uint8Array | string): void {
  mkdirSync(join(path, '..'), { recursive: true });
  const temporary = `${path}.partial`;
  writeFileSync(temporary, data);
  renameSync(temporary, path);
}
