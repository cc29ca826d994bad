import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { RepocodError } from '@repocod/core';
import { PARQUET_NAME, readReleaseRows } from '@repocod/publish';
import { FRESHNESS_RECORD } from './release-freshness.js';
import { solutionOfGoldPatch } from './version-change-reasons.js';

/** A released task as a diff of versions needs it: where its function is and the solution it restores. */
export interface VersionTask {
  readonly instanceId: string;
  /** The manifest's name of its repository (tasks.jsonl's), else the `repo` column. */
  readonly repository: string;
  readonly repo: string;
  /** From tasks.jsonl; null for a version without one (then it is matched by instance id alone). */
  readonly file: string | null;
  readonly qualname: string | null;
  readonly baseCommit: string;
  readonly baseCommitTimestamp: string;
  /** The lines its gold code patch restores (solutionOfGoldPatch). */
  readonly solution: string;
}

/** One version of a release, read for a diff. */
export interface VersionSide {
  readonly version: string;
  readonly tasks: readonly VersionTask[];
  /** Its validation record (validation.jsonl): every selected task's status, released or not. */
  readonly selected: ReadonlyMap<string, string>;
  /** The `--changed-since` cutoff its freshness.json records (UTC); null for a version made without one. */
  readonly cutoff: string | null;
}

/** The versions a release folder holds: each folder with a `test-00000-of-00001.parquet`, oldest name first. */
export function releaseFolderVersions(folder: string): string[] {
  if (!existsSync(folder) || !statSync(folder).isDirectory())
    throw new RepocodError('path-not-found', `--release ${folder}: no such folder`);
  const versions = readdirSync(folder, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name !== 'data' && !entry.name.startsWith('.'))
    .map((entry) => entry.name)
    .filter((name) => existsSync(join(folder, name, PARQUET_NAME)))
    .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
  if (versions.length === 0)
    throw new RepocodError(
      'usage',
      `--release ${folder} is not a release folder: no VERSION/${PARQUET_NAME} in it; give the folder \`repocod ` +
        `publish --out\` wrote`,
    );
  return versions;
}

/** A version of a release folder read back: its Parquet, tasks.jsonl and validation.jsonl. */
export function readVersionSide(folder: string, version: string): VersionSide {
  const versions = releaseFolderVersions(folder);
  if (!versions.includes(version))
    throw new RepocodError('usage', `version ${version} is not in ${folder}; its versions: ${versions.join(', ')}`);
  const text = (name: string): string => {
    const path = join(folder, version, name);
    return existsSync(path) ? readFileSync(path, 'utf8') : '';
  };
  return versionSideOf(
    version,
    readReleaseRows(join(folder, version, PARQUET_NAME)),
    text('tasks.jsonl'),
    text('validation.jsonl'),
    join(folder, version),
    text(FRESHNESS_RECORD),
  );
}

/**
 * A version from its rows (a Parquet file's read back, or the rows publish is about to write) and the text of
 * its tasks.jsonl, validation.jsonl and freshness.json (empty when it has none); `source` names where they are for
 * an error.
 */
export function versionSideOf(
  version: string,
  rows: readonly object[],
  tasksJsonl: string,
  validationJsonl: string,
  source: string,
  freshnessJson = '',
): VersionSide {
  const facts = new Map(jsonLines(tasksJsonl, `${source}/tasks.jsonl`).map((line) => [String(line.instance_id), line]));
  const tasks = rows.map((row): VersionTask => {
    const fields = row as Record<string, unknown>;
    const instanceId = String(fields.instance_id);
    const fact = facts.get(instanceId);
    const repo = String(fields.repo);
    return {
      instanceId,
      repository: typeof fact?.repository === 'string' ? fact.repository : repo,
      repo,
      file: typeof fact?.file === 'string' ? fact.file : null,
      qualname: typeof fact?.qualname === 'string' ? fact.qualname : null,
      baseCommit: String(fields.base_commit),
      baseCommitTimestamp: String(fields.base_commit_timestamp),
      solution: solutionOfGoldPatch(String((fields.gold_patches as { code?: unknown } | null)?.code ?? '')),
    };
  });
  const selected = new Map(
    jsonLines(validationJsonl, `${source}/validation.jsonl`).map((line) => [
      String(line.instance_id),
      String(line.status),
    ]),
  );
  return { version, tasks, selected, cutoff: recordedCutoff(freshnessJson, `${source}/${FRESHNESS_RECORD}`) };
}

/** The cutoff a version's freshness.json records; null without the file. */
function recordedCutoff(text: string, file: string): string | null {
  if (text.trim() === '') return null;
  let record: unknown;
  try {
    record = JSON.parse(text);
  } catch (error) {
    throw new RepocodError('parse-error', `${file}: not JSON (${(error as Error).message})`);
  }
  const cutoff = (record as { changed_since?: unknown } | null)?.changed_since;
  if (typeof cutoff !== 'string')
    throw new RepocodError('parse-error', `${file}: no changed_since (the cutoff); publish the version again`);
  return cutoff;
}

function jsonLines(text: string, file: string): Record<string, unknown>[] {
  return text.split('\n').flatMap((line, index) => {
    if (line.trim() === '') return [];
    try {
      return [JSON.parse(line) as Record<string, unknown>];
    } catch (error) {
      throw new RepocodError('parse-error', `${file}:${index + 1}: not JSON (${(error as Error).message})`);
    }
  });
}
