import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tableToIPC } from 'apache-arrow';
import { RepocodError } from '@repocod/core';
import type { ConfigInfo } from './dataset-card.js';
import { cardFrontMatter, configsOfCard } from './dataset-card.js';
import type { ReleaseRow } from './release-table.js';
import { readParquetRows } from './parquet-rows.js';
import { withPromptsSection } from './prompts-card-section.js';
import { checkReleaseColumns } from './release-columns.js';
import { releasePrompts } from './release-prompts.js';
import { releaseParquet, releaseTable } from './release-table.js';
import { writeAtomically } from './write-atomically.js';

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

/** A file of a version beside its Parquet (`<version>/<name>`), such as its validation record. */
export interface VersionFile {
  readonly name: string;
  readonly content: string;
}

/** What adding a version will write, worked out from the folder as it is: nothing written yet. */
export interface ReleasePlan extends WrittenRelease {
  /** The files to write, relative to the folder, in the order they are written (the card last). */
  readonly writes: readonly { readonly path: string; readonly bytes: Uint8Array }[];
}

/**
 * Works out a new version of a release folder laid out as the Hub wants it: `<version>/test-…parquet`,
 * `data/test-…parquet` (the default config, this version), the version's own extra files and
 * README.md (front matter for every version, then `body`). Earlier versions found in the folder's card
 * stay as they are: a version is never rewritten.
 */
export function planRelease(
  folder: string,
  version: string,
  rows: readonly ReleaseRow[],
  body: string,
  extras: readonly VersionFile[] = [],
): ReleasePlan {
  if (!/^[\w.-]+$/.test(version) || version === 'data' || version === 'default') {
    throw new RepocodError(
      'usage',
      `--version ${version}: use letters, digits, dots, dashes or underscores (not "data" or "default")`,
    );
  }
  const cardPath = join(folder, 'README.md');
  const earlier = existsSync(cardPath) ? configsOfCard(readFileSync(cardPath, 'utf8'), cardPath) : [];
  if (earlier.some((config) => config.version === version)) {
    throw new RepocodError(
      'usage',
      `${folder}: version ${version} is already released there (${earlier
        .map((config) => config.version)
        .join(', ')}); versions are never rewritten: choose a new --version`,
    );
  }
  for (const config of earlier) {
    if (!existsSync(join(folder, config.version, PARQUET_NAME))) {
      throw new RepocodError(
        'path-not-found',
        `${cardPath} lists version ${config.version} but ${join(folder, config.version, PARQUET_NAME)} is missing; ` +
          `restore the earlier release folder (or download it from the Hub) before adding a version`,
      );
    }
  }
  const table = releaseTable(rows);
  const parquet = releaseParquet(table);
  const config: ConfigInfo = {
    version,
    numBytes: tableToIPC(table, 'stream').byteLength,
    numExamples: rows.length,
    downloadSize: parquet.byteLength,
  };
  const previous = earlier.at(-1);
  const diff =
    previous === undefined
      ? null
      : versionDiff(previous.version, readReleaseRows(join(folder, previous.version, PARQUET_NAME)), rows);
  const configs = [...earlier, config];
  // The prompts shipped with earlier versions stay named in the card (release-prompts.ts).
  const prompts = releasePrompts(
    folder,
    earlier.map((each) => each.version),
  );
  const text = new TextEncoder();
  const writes = [
    { path: join(version, PARQUET_NAME), bytes: parquet },
    { path: join('data', PARQUET_NAME), bytes: parquet },
    ...extras.map((extra) => ({ path: join(version, extra.name), bytes: text.encode(extra.content) })),
    {
      path: 'README.md',
      bytes: text.encode(`${cardFrontMatter(configs, version, prompts)}\n${withPromptsSection(body, prompts)}`),
    },
  ];
  const files = [...new Set([...releaseFiles(folder), ...writes.map((write) => write.path)])].sort(byReleaseOrder);
  return { folder, version, configs, files, diff, writes };
}

/**
 * Writes a planned version. The new files go before the card, each through a temporary file, so a
 * failure leaves the previous release whole (its card still lists only the earlier versions).
 */
export function applyReleasePlan(plan: ReleasePlan): WrittenRelease {
  for (const write of plan.writes) writeAtomically(join(plan.folder, write.path), write.bytes);
  const { writes: _written, ...release } = plan;
  return release;
}

/** Plans and writes a new version (see planRelease). */
export function writeRelease(
  folder: string,
  version: string,
  rows: readonly ReleaseRow[],
  body: string,
  extras: readonly VersionFile[] = [],
): WrittenRelease {
  return applyReleasePlan(planRelease(folder, version, rows, body, extras));
}

/**
 * The files of a release folder, relative to it, as a push uploads them: everything but hidden files
 * and the temporaries of an interrupted write. README.md first, then data/, then the versions.
 */
export function releaseFiles(folder: string): string[] {
  if (!existsSync(folder)) return [];
  const found: string[] = [];
  const walk = (relative: string): void => {
    for (const entry of readdirSync(join(folder, relative), { withFileTypes: true })) {
      if (entry.name.startsWith('.') || entry.name.endsWith('.partial')) continue;
      const path = relative === '' ? entry.name : join(relative, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) found.push(path);
    }
  };
  walk('');
  return found.sort(byReleaseOrder);
}

function byReleaseOrder(a: string, b: string): number {
  const rank = (path: string): number => (path === 'README.md' ? 0 : path.startsWith('data/') ? 1 : 2);
  return rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0);
}

/**
 * The rows of a release Parquet file, as plain objects keyed by the seed's column names. A file missing, unreadable
 * or of other columns is a BadReleaseFileError naming it, ending with `fix` (by default: get the release again).
 */
export function readReleaseRows(file: string, fix?: string): Record<string, unknown>[] {
  const read = readParquetRows(file, fix);
  checkReleaseColumns(file, read, fix);
  return read.rows;
}

function versionDiff(
  previous: string,
  before: readonly Record<string, unknown>[],
  after: readonly ReleaseRow[],
): VersionDiff {
  const content = (row: object): string => JSON.stringify({ ...row, version: undefined });
  const old = new Map(before.map((row) => [String(row.instance_id), row]));
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
    instance_id: row.instance_id,
    gold_patches: row.gold_patches,
    pre_patches: row.pre_patches,
    repo: row.repo,
    base_commit: row.base_commit,
    base_commit_timestamp: row.base_commit_timestamp,
    problem_statement: row.problem_statement,
    environment_setup_commit: row.environment_setup_commit,
    FAIL_TO_PASS: (row.evaluation as { FAIL_TO_PASS?: unknown } | undefined)?.FAIL_TO_PASS ?? [],
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
