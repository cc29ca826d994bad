import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RepocodError } from '@repocod/core';
import { readReleaseRows } from './release-folder.js';

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
 * row and the field.
 */
export function readRelease(folder: string, version?: string): ReadRelease {
  if (!existsSync(folder)) throw new RepocodError('path-not-found', `${folder}: no such release folder`);
  const directory = join(folder, version ?? 'data');
  const parquet = existsSync(directory)
    ? readdirSync(directory).find((name) => name.startsWith('test-') && name.endsWith('.parquet'))
    : undefined;
  if (parquet === undefined) {
    const versions = existsSync(folder)
      ? readdirSync(folder).filter((name) => /^\d/.test(name) && existsSync(join(folder, name)))
      : [];
    throw new RepocodError(
      'path-not-found',
      `${directory}: no test-*.parquet (${version === undefined ? 'the default config' : `version ${version}`}); \
versions in ${folder}: ${versions.sort().join(', ') || 'none'}`,
    );
  }
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
