import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ContextLevel } from '@repocod/core';
import { CONTEXT_LEVELS, RepocodError } from '@repocod/core';

/**
 * REPOCOD's published figures as data (datasets/repocod/reference/, transcribed from the paper with
 * their sources): per repository × context level the task count and the means of prompt tokens (#NL),
 * canonical-solution tokens (#GT) and cyclomatic complexity. Our own tasks are measured into the same
 * shape (task-statistics.ts), so that the two compare cell by cell.
 */
export interface StatisticsCell {
  readonly tasks: number;
  /** Mean prompt tokens (cl100k_base); null without tasks. */
  readonly nl: number | null;
  /** Mean canonical-solution tokens (cl100k_base); null without tasks. */
  readonly gt: number | null;
  /** Mean radon cyclomatic complexity; null without tasks. */
  readonly cyclo: number | null;
}

export type StatisticsRow = Readonly<Record<ContextLevel | 'all', StatisticsCell>>;

export interface StatisticsTable {
  readonly repositories: Readonly<Record<string, StatisticsRow>>;
  readonly total: StatisticsRow;
}

/** The published tables: the full benchmark with the ACL version's labels or the first ones, and Lite. */
export const REFERENCE_TABLES = ['full-v4', 'full-v1', 'lite'] as const;
export type ReferenceName = (typeof REFERENCE_TABLES)[number];

export interface ReferenceTable extends StatisticsTable {
  readonly name: ReferenceName;
  /** Where the figures come from (paper, version, table). */
  readonly source: string;
  readonly what: string;
}

/** Figure 4 of the paper: the full benchmark's tasks over solution length and over complexity. */
export interface ReferenceBins {
  readonly source: string;
  /** [from, to) tokens, the last one closed. */
  readonly solutionTokens: readonly ReferenceBin[];
  /** Inclusive bounds; null for an open end. */
  readonly complexity: readonly ReferenceBin[];
}

export interface ReferenceBin {
  readonly from: number | null;
  readonly to: number | null;
  readonly toInclusive: boolean;
  readonly tasks: number;
}

const COLUMNS = ['all', ...CONTEXT_LEVELS] as const;

/** Reads `<name>.json` of the reference folder; a file out of shape names the field and what it holds. */
export function readReferenceTable(folder: string, name: ReferenceName): ReferenceTable {
  const file = join(folder, `${name}.json`);
  const data = readJson(file);
  const repositories: Record<string, StatisticsRow> = {};
  const listed = object(data.repositories, file, 'repositories');
  for (const [repository, row] of Object.entries(listed)) {
    repositories[repository] = statisticsRow(row, file, `repositories.${repository}`);
  }
  return {
    name,
    source: text(data.source, file, 'source'),
    what: text(data.what, file, 'what'),
    repositories,
    total: statisticsRow(data.total, file, 'total'),
  };
}

export function readReferenceBins(folder: string): ReferenceBins {
  const file = join(folder, 'bins.json');
  const data = readJson(file);
  const bins = (value: unknown, field: string, inclusive: boolean): ReferenceBin[] => {
    if (!Array.isArray(value)) throw shapeError(file, field, 'a list of bins', value);
    return value.map((entry, index) => {
      const bin = object(entry, file, `${field}[${index}]`);
      return {
        from: bound(bin.from, file, `${field}[${index}].from`),
        to: bound(bin.to, file, `${field}[${index}].to`),
        toInclusive: inclusive || bin.to_inclusive === true,
        tasks: count(bin.tasks, file, `${field}[${index}].tasks`),
      };
    });
  };
  return {
    source: text(data.source, file, 'source'),
    solutionTokens: bins(data.solution_tokens, 'solution_tokens', false),
    complexity: bins(data.cyclomatic_complexity, 'cyclomatic_complexity', true),
  };
}

function readJson(file: string): Record<string, unknown> {
  let raw: string;
  try {
    raw = readFileSync(file, 'utf8');
  } catch (error) {
    throw new RepocodError(
      'file-unreadable',
      `${file}: cannot read REPOCOD's reference figures (${(error as Error).message})`,
    );
  }
  try {
    return object(JSON.parse(raw), file, '(top level)');
  } catch (error) {
    if (error instanceof RepocodError) throw error;
    throw new RepocodError('config-invalid', `${file}: not JSON (${(error as Error).message}); restore it from git`);
  }
}

function statisticsRow(value: unknown, file: string, field: string): StatisticsRow {
  const row = object(value, file, field);
  const cells = {} as Record<(typeof COLUMNS)[number], StatisticsCell>;
  for (const column of COLUMNS) {
    const cell = object(row[column], file, `${field}.${column}`);
    cells[column] = {
      tasks: count(cell.tasks, file, `${field}.${column}.tasks`),
      nl: mean(cell.nl, file, `${field}.${column}.nl`),
      gt: mean(cell.gt, file, `${field}.${column}.gt`),
      cyclo: mean(cell.cyclo, file, `${field}.${column}.cyclo`),
    };
  }
  return cells;
}

function object(value: unknown, file: string, field: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw shapeError(file, field, 'an object', value);
  return value as Record<string, unknown>;
}

function text(value: unknown, file: string, field: string): string {
  if (typeof value !== 'string') throw shapeError(file, field, 'a string', value);
  return value;
}

function count(value: unknown, file: string, field: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0)
    throw shapeError(file, field, 'a task count', value);
  return value;
}

function mean(value: unknown, file: string, field: string): number | null {
  if (value === null) return null;
  if (typeof value !== 'number' || !Number.isFinite(value)) throw shapeError(file, field, 'a number or null', value);
  return value;
}

function bound(value: unknown, file: string, field: string): number | null {
  return value === null || value === undefined ? null : count(value, file, field);
}

function shapeError(file: string, field: string, expected: string, got: unknown): RepocodError {
  return new RepocodError(
    'config-invalid',
    `${file}: ${field} must be ${expected} (got ${JSON.stringify(got) ?? 'nothing'}); the file is REPOCOD's ` +
      'published figures as transcribed in the repository: restore it from git',
  );
}
