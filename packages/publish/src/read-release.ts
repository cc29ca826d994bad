import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RepocodError } from '@repocod/core';
import { BadReleaseFileError } from './bad-release-file-error.js';
import { configsOfCard } from './dataset-card.js';
import { PARQUET_NAME, readReleaseRows } from './release-folder.js';

/** A task of a release as an evaluation reads it. */
export interface ReleaseTask {
  readonly instanceId: string;
  readonly version: string;
  /** `owner/name` (or a bare name), as the `repo` column has it. */
  readonly repo: string;
  readonly baseCommit: string;
  readonly preCode: string;
  readonly preTest: string;
  readonly goldCode: string;
  readonly goldTest: string;
  readonly problemCode: string;
  readonly failToPass: readonly string[];
  /** From the version's tasks.jsonl; null for a release without one (one not written by repocod-kit). */
  readonly meta: ReleaseTaskMeta | null;
}

/** What `<version>/tasks.jsonl` says of a task beyond the seed's columns. */
export interface ReleaseTaskMeta {
  /** The manifest's name of the repository. */
  readonly repository: string;
  readonly file: string;
  readonly qualname: string;
  readonly level: string;
  readonly promptTokens: number;
  readonly solutionTokens: number;
  readonly complexity: number;
  /**
   * The commit of the body's newest code line and that line's author time (UTC `YYYY-MM-DDTHH:MM:SSZ`), when the
   * release dated the task's body (`body_commit`, `body_changed_at`); null otherwise.
   */
  readonly bodyCommit: string | null;
  readonly bodyChangedAt: string | null;
}

export interface ReadRelease {
  readonly folder: string;
  readonly version: string;
  /** The Parquet file read. */
  readonly file: string;
  readonly tasks: readonly ReleaseTask[];
}

/**
 * Reads one version of a release folder (the layout `repocod publish` writes and the Hub serves):
 * `<version>/test-*.parquet`, or without a version the default config's `data/test-*.parquet`, whose
 * rows name their version. A row without a field evaluation needs is an error naming the file, the
 * row and the field. A folder with a card (README.md) is read as the card says: a Parquet file of a version it
 * lists that is missing, unreadable or of other columns, a card that is not one, and a version there that it does
 * not list are each a BadReleaseFileError naming the file and what to do.
 */
export function readRelease(folder: string, version?: string): ReadRelease {
  if (!existsSync(folder)) throw new RepocodError('path-not-found', `${folder}: no such release folder`);
  const listed = cardVersions(folder);
  const directory = join(folder, version ?? 'data');
  const parquet = existsSync(directory)
    ? readdirSync(directory).find((name) => name.startsWith('test-') && name.endsWith('.parquet'))
    : undefined;
  if (parquet === undefined && listed !== null && (version === undefined || listed.includes(version))) {
    // The card lists it, so the file was there: lost since, or a download cut short.
    const config = version === undefined ? 'the default config' : `version ${version}`;
    const detail = `${join(folder, 'README.md')} lists ${config} but ${directory} has no test-*.parquet`;
    throw new BadReleaseFileError(join(directory, PARQUET_NAME), 'missing-file', detail);
  }
  if (parquet === undefined) {
    const versions = existsSync(folder)
      ? readdirSync(folder).filter((name) => /^\d/.test(name) && existsSync(join(folder, name)))
      : [];
    throw new RepocodError(
      'path-not-found',
      `${directory}: no test-*.parquet (${version === undefined ? 'the default config' : `version ${version}`}); ` +
        `versions in ${folder}: ${versions.sort().join(', ') || 'none'}`,
    );
  }
  if (version !== undefined && listed !== null && !listed.includes(version))
    throw unlistedVersion(folder, version, listed);
  const file = join(directory, parquet);
  const rows = readReleaseRows(file);
  const tasks = rows.map((row, index) => releaseTask(row, `${file}: row ${index + 1}`));
  const rowVersion = version ?? tasks[0]?.version ?? 'unknown';
  const meta = readTaskMeta(join(folder, rowVersion, 'tasks.jsonl'));
  return {
    folder,
    version: rowVersion,
    file,
    tasks: tasks.map((task) => ({ ...task, meta: meta.get(task.instanceId) ?? null })),
  };
}

/** The versions the folder's card lists; null for a folder without one (a release not written by repocod-kit). */
function cardVersions(folder: string): string[] | null {
  const card = join(folder, 'README.md');
  if (!existsSync(card)) return null;
  return configsOfCard(readFileSync(card, 'utf8'), card).map((config) => config.version);
}

/**
 * A version's Parquet file is there but the card does not list it: publish writes the card last, so a publish cut
 * short leaves this, and neither the Hub nor `datasets` would serve that version.
 */
function unlistedVersion(folder: string, version: string, listed: readonly string[]): BadReleaseFileError {
  const card = join(folder, 'README.md');
  const detail = [
    `${join(folder, version)} is there but the card lists ${listed.length === 0 ? 'no version' : listed.join(', ')},`,
    'as a publish stopped before writing its card leaves it',
  ].join(' ');
  const fix = [
    `publish the version again (\`repocod publish --version ${version} --out ${folder}\` with the catalog that built`,
    `it)${listed.length === 0 ? '' : `, or give a version the card lists (--version ${listed.join(', ')})`}`,
  ].join(' ');
  return new BadReleaseFileError(card, 'missing-config', detail, fix);
}

function releaseTask(row: Record<string, unknown>, where: string): Omit<ReleaseTask, 'meta'> {
  const text = (value: unknown, field: string): string => {
    if (typeof value === 'string') return value;
    if (value === null || value === undefined) return '';
    throw new RepocodError('config-invalid', `${where}: ${field} is not a string`);
  };
  const required = (value: unknown, field: string): string => {
    const found = text(value, field);
    if (found === '') throw new RepocodError('config-invalid', `${where}: ${field} is missing`);
    return found;
  };
  const pair = (value: unknown, field: string): { code: string; test: string } => {
    const object = (value ?? {}) as Record<string, unknown>;
    return { code: text(object.code, `${field}.code`), test: text(object.test, `${field}.test`) };
  };
  const gold = pair(row.gold_patches, 'gold_patches');
  const pre = pair(row.pre_patches, 'pre_patches');
  const tests = (row.evaluation as { FAIL_TO_PASS?: unknown } | null | undefined)?.FAIL_TO_PASS;
  if (!Array.isArray(tests) || tests.some((test) => typeof test !== 'string'))
    throw new RepocodError('config-invalid', `${where}: evaluation.FAIL_TO_PASS is not a list of test ids`);
  return {
    instanceId: required(row.instance_id, 'instance_id'),
    version: text(row.version, 'version'),
    repo: required(row.repo, 'repo'),
    baseCommit: required(row.base_commit, 'base_commit'),
    preCode: required(pre.code, 'pre_patches.code'),
    preTest: pre.test,
    goldCode: required(gold.code, 'gold_patches.code'),
    goldTest: gold.test,
    problemCode: pair(row.problem_statement, 'problem_statement').code,
    failToPass: tests as string[],
  };
}

function readTaskMeta(file: string): Map<string, ReleaseTaskMeta> {
  const meta = new Map<string, ReleaseTaskMeta>();
  if (!existsSync(file)) return meta;
  for (const [index, line] of readFileSync(file, 'utf8').split('\n').entries()) {
    if (line.trim() === '') continue;
    let row: Record<string, unknown>;
    try {
      row = JSON.parse(line) as Record<string, unknown>;
    } catch (error) {
      throw new RepocodError('parse-error', `${file}:${index + 1}: not JSON (${(error as Error).message})`);
    }
    meta.set(String(row.instance_id), {
      repository: String(row.repository),
      file: String(row.file),
      qualname: String(row.qualname),
      level: String(row.level),
      promptTokens: Number(row.prompt_tokens),
      solutionTokens: Number(row.solution_tokens),
      complexity: Number(row.cc),
      bodyCommit: typeof row.body_commit === 'string' ? row.body_commit : null,
      bodyChangedAt: typeof row.body_changed_at === 'string' ? row.body_changed_at : null,
    });
  }
  return meta;
}
