import type { DuckDBAppender } from '@duckdb/node-api';
import type { ContextLevel, Dependency, LevelLabel, LevelMode, TaskChecks, TaskLevels } from '@repocod/core';
import { CONTEXT_LEVELS, decodeDependencies, decodeTaskChecks, LEVEL_MODES, parseLevelCalls } from '@repocod/core';
import { LIST, listValue, VARCHAR } from '@duckdb/node-api';
import { appendTrailingDefaults } from './append-defaults.js';
import { integer, oneOf, type Row, text, textList, timestamp, timestampValueOf } from './typed-cells.js';

/*
 * The shapes @repocod/tasks and the pipeline hand over, declared here (the catalog depends on core only).
 */

export type TaskLevel = ContextLevel;

/** One task, a row of `tasks`. */
export interface TaskRow {
  readonly instanceId: string;
  readonly repository: string;
  readonly functionId: string;
  readonly file: string;
  readonly qualname: string;
  /** `owner/name` as the dataset's `repo` column has it. */
  readonly repo: string;
  readonly baseCommit: string;
  readonly baseCommitTimestamp: string;
  readonly prompt: string;
  readonly solution: string;
  readonly promptLines: number;
  readonly solutionLines: number;
  readonly promptTokens: number;
  readonly solutionTokens: number;
  readonly complexity: number;
  /** The level under `levelMode`: `levels[levelMode].level`. */
  readonly level: TaskLevel;
  /** The mode `level` is under: the tasks stage's, then the last selection's (select re-labels). */
  readonly levelMode: LevelMode;
  /**
   * The level and the calls that decided it under each mode (the `task_levels` rows). The tasks stage
   * writes every mode; a task built before the modes existed has none.
   */
  readonly levels: Readonly<Partial<TaskLevels>>;
  /** The `deps` classifier's dependencies, whatever the mode (stored as JSON text, read back checked). */
  readonly dependencies: readonly Dependency[];
  readonly failToPass: readonly string[];
  readonly problemCode: string;
  readonly problemTest: string;
  readonly preCode: string;
  readonly goldCode: string;
  readonly preTest: string;
  readonly goldTest: string;
  /** The patch checks (round trip, git apply --check, collection), with their messages (JSON text, checked). */
  readonly checks: TaskChecks;
  /** Whether every check passed: only such tasks can be selected. */
  readonly checksPassed: boolean;
}

export const TASK_COLUMNS = [
  'instance_id',
  'repository',
  'function_id',
  'file',
  'qualname',
  'repo',
  'base_commit',
  'base_commit_timestamp',
  'prompt',
  'solution',
  'prompt_lines',
  'solution_lines',
  'prompt_tokens',
  'solution_tokens',
  'cc',
  'level',
  'dependencies',
  'fail_to_pass',
  'problem_code',
  'problem_test',
  'pre_code',
  'gold_code',
  'pre_test',
  'gold_test',
  'checks',
  'checks_passed',
  'built_at',
  'level_mode',
] as const;

const TEXT_LIST = LIST(VARCHAR);

export function appendTask(appender: DuckDBAppender, task: TaskRow, builtAt: Date): void {
  for (const value of [
    task.instanceId,
    task.repository,
    task.functionId,
    task.file,
    task.qualname,
    task.repo,
    task.baseCommit,
    task.baseCommitTimestamp,
    task.prompt,
    task.solution,
  ])
    appender.appendVarchar(value);
  for (const value of [task.promptLines, task.solutionLines, task.promptTokens, task.solutionTokens, task.complexity])
    appender.appendInteger(value);
  appender.appendVarchar(task.level);
  appender.appendVarchar(JSON.stringify(task.dependencies));
  appender.appendList(listValue([...task.failToPass]), TEXT_LIST);
  for (const value of [
    task.problemCode,
    task.problemTest,
    task.preCode,
    task.goldCode,
    task.preTest,
    task.goldTest,
    JSON.stringify(task.checks),
  ])
    appender.appendVarchar(value);
  appender.appendBoolean(task.checksPassed);
  appender.appendTimestamp(timestampValueOf(builtAt));
  appender.appendVarchar(task.levelMode);
  appendTrailingDefaults(appender, TASK_COLUMNS.length);
  appender.endRow();
}

/** A `task_levels` row: one task's label under one mode. */
export function taskLevelFromRow(row: Row): { instanceId: string; mode: LevelMode; label: LevelLabel } {
  const instanceId = text(row, 'instance_id');
  return {
    instanceId,
    mode: oneOf(row, 'mode', LEVEL_MODES, 'level mode'),
    label: {
      level: oneOf(row, 'level', CONTEXT_LEVELS, 'context level'),
      calls: parseLevelCalls(text(row, 'calls'), `task_levels.calls of ${instanceId} (${text(row, 'mode')})`),
    },
  };
}

export function taskFromRow(
  row: Row,
  levels: Readonly<Partial<TaskLevels>> = {},
): TaskRow & { readonly builtAt: Date } {
  const where = (column: string): string => `tasks.${column} of ${text(row, 'instance_id')}`;
  return {
    instanceId: text(row, 'instance_id'),
    repository: text(row, 'repository'),
    functionId: text(row, 'function_id'),
    file: text(row, 'file'),
    qualname: text(row, 'qualname'),
    repo: text(row, 'repo'),
    baseCommit: text(row, 'base_commit'),
    baseCommitTimestamp: text(row, 'base_commit_timestamp'),
    prompt: text(row, 'prompt'),
    solution: text(row, 'solution'),
    promptLines: integer(row, 'prompt_lines'),
    solutionLines: integer(row, 'solution_lines'),
    promptTokens: integer(row, 'prompt_tokens'),
    solutionTokens: integer(row, 'solution_tokens'),
    complexity: integer(row, 'cc'),
    level: oneOf(row, 'level', CONTEXT_LEVELS, 'context level'),
    levelMode: oneOf(row, 'level_mode', LEVEL_MODES, 'level mode'),
    levels,
    dependencies: decodeDependencies(text(row, 'dependencies'), where('dependencies')),
    failToPass: textList(row, 'fail_to_pass'),
    problemCode: text(row, 'problem_code'),
    problemTest: text(row, 'problem_test'),
    preCode: text(row, 'pre_code'),
    goldCode: text(row, 'gold_code'),
    preTest: text(row, 'pre_test'),
    goldTest: text(row, 'gold_test'),
    checks: decodeTaskChecks(text(row, 'checks'), where('checks')),
    checksPassed: row.checks_passed === true,
    builtAt: timestamp(row, 'built_at'),
  };
}

/** One pick of a selection, a row of `selection_picks`. */
export interface SelectionPick {
  readonly instanceId: string;
  readonly level: TaskLevel;
  readonly score: number;
  /** 1-based rank within its level. */
  readonly rank: number;
}

export function pickFromRow(row: Row): SelectionPick {
  const score = row.score;
  return {
    instanceId: text(row, 'instance_id'),
    level: text(row, 'level') as TaskLevel,
    score: typeof score === 'number' ? score : Number(score),
    rank: integer(row, 'rank'),
  };
}

/** A task as a table of all the tasks shows it: no texts, the patches' sha256 (contentHash's) instead. */
export interface TaskSummary
  extends Pick<
    TaskRow,
    | 'instanceId'
    | 'repository'
    | 'file'
    | 'qualname'
    | 'baseCommit'
    | 'level'
    | 'levelMode'
    | 'complexity'
    | 'promptLines'
    | 'solutionLines'
    | 'promptTokens'
    | 'solutionTokens'
    | 'failToPass'
    | 'checksPassed'
  > {
  /** sha256 hex of pre code, pre test, gold code and gold test, in that order. */
  readonly patchHashes: readonly string[];
}

export const TASK_SUMMARY_QUERY =
  `SELECT instance_id, repository, file, qualname, base_commit, level, level_mode, cc, ` +
  `prompt_lines,
  solution_lines, prompt_tokens, solution_tokens, fail_to_pass, checks_passed,
  sha256(pre_code) AS pre_code_hash, sha256(pre_test) AS pre_test_hash, sha256(gold_code) AS gold_code_hash,
  sha256(gold_test) AS gold_test_hash
  FROM tasks ORDER BY instance_id`;

export function taskSummaryFromRow(row: Row): TaskSummary {
  return {
    instanceId: text(row, 'instance_id'),
    repository: text(row, 'repository'),
    file: text(row, 'file'),
    qualname: text(row, 'qualname'),
    baseCommit: text(row, 'base_commit'),
    level: oneOf(row, 'level', CONTEXT_LEVELS, 'context level'),
    levelMode: oneOf(row, 'level_mode', LEVEL_MODES, 'level mode'),
    complexity: integer(row, 'cc'),
    promptLines: integer(row, 'prompt_lines'),
    solutionLines: integer(row, 'solution_lines'),
    promptTokens: integer(row, 'prompt_tokens'),
    solutionTokens: integer(row, 'solution_tokens'),
    failToPass: textList(row, 'fail_to_pass'),
    checksPassed: row.checks_passed === true,
    patchHashes: ['pre_code_hash', 'pre_test_hash', 'gold_code_hash', 'gold_test_hash'].map((column) =>
      text(row, column),
    ),
  };
}
