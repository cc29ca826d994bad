import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { asArray, asObject, contentHash, parseStoredJson, RepocodError, stableJson, stringField } from '@repocod/core';
import { PARQUET_NAME, readReleaseRows } from './release-folder.js';

/**
 * What a published release is, byte for byte, committed beside its records so that anyone who rebuilds
 * it can say "same release" or name the first difference: the selection it released and every verdict
 * of the pool it was picked from, the sha256 of each file of the version, and the sha256 of each task's
 * row (the Parquet row read back, as stable JSON). The repositories say which commit and which
 * committed checkpoint each came from.
 */
export interface ReleaseManifest {
  readonly format: typeof RELEASE_MANIFEST_FORMAT;
  readonly version: string;
  readonly selection: string;
  readonly spec: unknown;
  /** The tool (with its git commit) that published the release. */
  readonly tool: string;
  readonly repositories: Readonly<Record<string, ReleaseRepository>>;
  /** The version folder's files (`<version>/…`) by path, each file's sha256. */
  readonly files: Readonly<Record<string, string>>;
  /** Every released task, by instance id. */
  readonly tasks: readonly ReleasedTask[];
  /** Every task of the pool with a verdict, by instance id: passed or failed (a failed one is passed over). */
  readonly verdicts: Readonly<Record<string, 'passed' | 'failed'>>;
}

export interface ReleaseRepository {
  readonly base_commit: string;
  /** The committed checkpoint's digest (checkpointDigest); null when the repository has none. */
  readonly checkpoint: string | null;
  /** Validation's k for it (the manifest's validate_runs, or --repeat). */
  readonly validate_runs: number;
}

export interface ReleasedTask {
  readonly instance_id: string;
  readonly repository: string;
  readonly level: string;
  readonly row_sha256: string;
}

export const RELEASE_MANIFEST_FORMAT = 'repocod-release-manifest/1';

/** The version's files, relative to the release folder, with their sha256 (the card is the folder's). */
export function versionFileHashes(folder: string, version: string): Record<string, string> {
  const directory = join(folder, version);
  if (!existsSync(directory))
    throw new RepocodError('path-not-found', `${directory}: no such version folder (publish --version ${version})`);
  const hashes: Record<string, string> = {};
  for (const name of readdirSync(directory).sort())
    hashes[`${version}/${name}`] = contentHash(readFileSync(join(directory, name)));
  return hashes;
}

/** Each row of the version's Parquet, read back, by instance id: the sha256 of its stable JSON. */
export function rowHashes(folder: string, version: string): Map<string, string> {
  const rows = readReleaseRows(join(folder, version, PARQUET_NAME));
  return new Map(rows.map((row) => [String(row.instance_id), contentHash(stableJson(row))]));
}

/** The difference between a committed manifest and a rebuilt one: the first that differs, per part. */
export interface ManifestDifference {
  readonly part: 'selection' | 'verdict' | 'file' | 'task' | 'repository';
  /** One line: what differs, with the committed and the rebuilt value. */
  readonly detail: string;
  /** The first differing task, where the part is about tasks. */
  readonly instanceId: string | null;
}

/**
 * Compares a rebuilt release with the committed manifest: the selection id, every verdict, each file's
 * and each task row's sha256, each repository's commit. Empty when they are the same release.
 */
export function compareReleaseManifests(committed: ReleaseManifest, rebuilt: ReleaseManifest): ManifestDifference[] {
  const differences: ManifestDifference[] = [];
  if (committed.selection !== rebuilt.selection)
    differences.push({
      part: 'selection',
      detail: `selection ${rebuilt.selection}, the release's is ${committed.selection}`,
      instanceId: firstPickDifference(committed.tasks, rebuilt.tasks),
    });
  for (const [name, repository] of Object.entries(committed.repositories)) {
    const other = rebuilt.repositories[name];
    if (other === undefined || other.base_commit !== repository.base_commit)
      differences.push({
        part: 'repository',
        detail: `${name}: base commit ${other?.base_commit ?? 'none'}, the release's is ${repository.base_commit}`,
        instanceId: null,
      });
  }
  const verdictIds = [...new Set([...Object.keys(committed.verdicts), ...Object.keys(rebuilt.verdicts)])].sort();
  const verdict = verdictIds.find((id) => committed.verdicts[id] !== rebuilt.verdicts[id]);
  if (verdict !== undefined)
    differences.push({
      part: 'verdict',
      detail: `${verdict}: ${rebuilt.verdicts[verdict] ?? 'no verdict'}, the release's is ${
        committed.verdicts[verdict] ?? 'no verdict'
      }`,
      instanceId: verdict,
    });
  const rebuiltRows = new Map(rebuilt.tasks.map((task) => [task.instance_id, task.row_sha256]));
  const committedRows = new Map(committed.tasks.map((task) => [task.instance_id, task.row_sha256]));
  const taskIds = [...new Set([...committedRows.keys(), ...rebuiltRows.keys()])].sort();
  const task = taskIds.find((id) => committedRows.get(id) !== rebuiltRows.get(id));
  if (task !== undefined) {
    const count = taskIds.filter((id) => committedRows.get(id) !== rebuiltRows.get(id)).length;
    const why = !rebuiltRows.has(task)
      ? 'not in the rebuilt release'
      : !committedRows.has(task)
        ? 'not in the committed release'
        : `row sha256 ${rebuiltRows.get(task)?.slice(0, 12)}, the release's is ${committedRows
            .get(task)
            ?.slice(0, 12)}`;
    differences.push({ part: 'task', detail: `${task}: ${why} (${count} task row(s) differ)`, instanceId: task });
  }
  const paths = [...new Set([...Object.keys(committed.files), ...Object.keys(rebuilt.files)])].sort();
  for (const path of paths) {
    if (committed.files[path] === rebuilt.files[path]) continue;
    differences.push({
      part: 'file',
      detail: `${path}: sha256 ${rebuilt.files[path]?.slice(0, 12) ?? 'missing'}, the release's is ${
        committed.files[path]?.slice(0, 12) ?? 'missing'
      }`,
      instanceId: null,
    });
  }
  return differences;
}

function firstPickDifference(committed: readonly ReleasedTask[], rebuilt: readonly ReleasedTask[]): string | null {
  const a = new Set(committed.map((task) => task.instance_id));
  const b = new Set(rebuilt.map((task) => task.instance_id));
  return [...new Set([...a, ...b])].sort().find((id) => a.has(id) !== b.has(id)) ?? null;
}

export function formatReleaseManifest(manifest: ReleaseManifest): string {
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

/** A committed manifest, checked field by field; an error names the file and the field. */
export function readReleaseManifest(file: string): ReleaseManifest {
  if (!existsSync(file))
    throw new RepocodError(
      'path-not-found',
      `${file}: no such release manifest (repocod rebuild --write-manifest writes one from a release)`,
    );
  const root = asObject(parseStoredJson(readFileSync(file, 'utf8'), file), file);
  const format = stringField(root, 'format', file);
  if (format !== RELEASE_MANIFEST_FORMAT)
    throw new RepocodError(
      'usage',
      `${file} (format): ${JSON.stringify(format)}, expected "${RELEASE_MANIFEST_FORMAT}"`,
    );
  const repositories = asObject(root.repositories, `${file} (repositories)`);
  const files = asObject(root.files, `${file} (files)`);
  const verdicts = asObject(root.verdicts, `${file} (verdicts)`);
  for (const [id, value] of Object.entries(verdicts))
    if (value !== 'passed' && value !== 'failed')
      throw new RepocodError('usage', `${file} (verdicts.${id}): ${JSON.stringify(value)}, expected passed or failed`);
  const tasks = asArray(root.tasks, `${file} (tasks)`).map((item, index) => {
    const at = `${file} (tasks[${index}])`;
    const object = asObject(item, at);
    return {
      instance_id: stringField(object, 'instance_id', at),
      repository: stringField(object, 'repository', at),
      level: stringField(object, 'level', at),
      row_sha256: stringField(object, 'row_sha256', at),
    };
  });
  return {
    format: RELEASE_MANIFEST_FORMAT,
    version: stringField(root, 'version', file),
    selection: stringField(root, 'selection', file),
    spec: root.spec,
    tool: stringField(root, 'tool', file),
    repositories: Object.fromEntries(
      Object.entries(repositories).map(([name, value]) => {
        const at = `${file} (repositories.${name})`;
        const object = asObject(value, at);
        const runs = object.validate_runs;
        if (typeof runs !== 'number' || !Number.isInteger(runs) || runs < 1)
          throw new RepocodError('usage', `${at}: validate_runs must be a whole number of runs, at least 1`);
        return [
          name,
          {
            base_commit: stringField(object, 'base_commit', at),
            checkpoint: object.checkpoint === null ? null : stringField(object, 'checkpoint', at),
            validate_runs: runs,
          },
        ];
      }),
    ),
    files: Object.fromEntries(
      Object.entries(files).map(([path, value]) => [path, stringField({ value }, 'value', `${file} (files.${path})`)]),
    ),
    tasks,
    verdicts: verdicts as Record<string, 'passed' | 'failed'>,
  };
}
