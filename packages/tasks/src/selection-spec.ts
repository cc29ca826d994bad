import type { ContextLevel, LevelMode } from '@repocod/core';
import { CONTEXT_LEVELS, LEVEL_MODES, RepocodError } from '@repocod/core';
import type { QualityRules } from './quality-rules.js';
import { parseQualityRules } from './quality-rules.js';

/** Quotas are per context level. */
export type SelectionLevel = ContextLevel;

export const SELECTION_LEVELS: readonly SelectionLevel[] = CONTEXT_LEVELS;

/**
 * How a Lite subset is chosen: a quota per context level, a score (an SQL expression over the
 * `tasks` columns, higher first) and a filter (an SQL condition). Stored with every selection and
 * release, so that a release says how it was built.
 */
export interface SelectionSpec {
  readonly quotas: Readonly<Record<SelectionLevel, number>>;
  readonly score: string;
  readonly filter: string;
  /**
   * The context-level mode the quotas are over (LEVEL_MODES). Absent in a spec file, it is resolved when
   * the selection is made (`--levels`, else the mode the tasks were labelled with) and stored filled in.
   */
  readonly levels?: LevelMode;
  /**
   * A reference's name (`repocod reference`): the pool is the tasks of the functions its rows resolve
   * to, not every task. Absent for a selection over every task, so the ids of those do not change.
   */
  readonly reference?: string;
  /**
   * Keep every task of the pool, failed validations included (rebuilding a published list means its
   * every task, each with its verdict): the quotas stored are then the pool's counts per level.
   */
  readonly keepAll?: boolean;
  /**
   * Task-quality rules (quality-rules.ts), each REPOCOD's choice when left out. Absent when the spec names none,
   * so the specs and selection ids of earlier selections stay as they were.
   */
  readonly quality?: QualityRules;
}

/** REPOCOD-Lite: 66/67/67 by lines(prompt) × lines(canonical solution), over every repository. */
export const REPOCOD_LITE_SPEC: SelectionSpec = {
  quotas: { 'self-contained': 66, 'file-level': 67, 'repo-level': 67 },
  score: 'prompt_lines * solution_lines',
  filter: 'true',
};

const FIELDS = ['quotas', 'score', 'filter', 'levels', 'reference', 'keepAll', 'quality'] as const;

/**
 * Reads a spec file (JSON). Missing fields take REPOCOD-Lite's values; an unknown field, a quota
 * that is not a whole number ≥ 0, or an expression with a `;` is refused with the field named.
 */
export function parseSelectionSpec(text: string, source: string): SelectionSpec {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new RepocodError(
      'config-invalid',
      `${source}: not JSON (${error instanceof Error ? error.message : String(error)})`,
    );
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new RepocodError('config-invalid', `${source}: the selection spec must be an object`);
  const record = value as Record<string, unknown>;
  const unknownField = Object.keys(record).find((key) => !(FIELDS as readonly string[]).includes(key));
  if (unknownField !== undefined)
    throw new RepocodError(
      'config-invalid',
      `${source}: unknown field "${unknownField}" (known: ${FIELDS.join(', ')})`,
    );
  const quotas = { ...REPOCOD_LITE_SPEC.quotas };
  if (record.quotas !== undefined) {
    const given = record.quotas;
    if (typeof given !== 'object' || given === null || Array.isArray(given))
      throw new RepocodError('config-invalid', `${source}: "quotas" must be an object of levels`);
    for (const [level, quota] of Object.entries(given)) {
      if (!(SELECTION_LEVELS as readonly string[]).includes(level))
        throw new RepocodError(
          'config-invalid',
          `${source}: quotas: unknown level "${level}" (known: ${SELECTION_LEVELS.join(', ')})`,
        );
      if (typeof quota !== 'number' || !Number.isInteger(quota) || quota < 0)
        throw new RepocodError(
          'config-invalid',
          `${source}: quotas.${level} must be a whole number >= 0 (got ${JSON.stringify(quota)})`,
        );
      quotas[level as SelectionLevel] = quota;
    }
  }
  const levels = record.levels;
  if (levels !== undefined && (typeof levels !== 'string' || !(LEVEL_MODES as readonly string[]).includes(levels)))
    throw new RepocodError(
      'config-invalid',
      `${source}: "levels" must be one of ${LEVEL_MODES.join(', ')} (got ${JSON.stringify(levels)})`,
    );
  const { reference, keepAll } = record;
  if (reference !== undefined && (typeof reference !== 'string' || reference.trim() === ''))
    throw new RepocodError(
      'config-invalid',
      `${source}: "reference" must be a reference's name (repocod reference list)`,
    );
  if (keepAll !== undefined && typeof keepAll !== 'boolean')
    throw new RepocodError('config-invalid', `${source}: "keepAll" must be true or false`);
  if (keepAll === true && reference === undefined)
    throw new RepocodError(
      'config-invalid',
      `${source}: "keepAll" keeps every task of a reference; name one in "reference"`,
    );
  return {
    quotas,
    score: expression(record, 'score', source),
    filter: expression(record, 'filter', source),
    ...(levels === undefined ? {} : { levels: levels as LevelMode }),
    ...(reference === undefined ? {} : { reference }),
    ...(keepAll === true ? { keepAll } : {}),
    ...(record.quality === undefined ? {} : { quality: parseQualityRules(record.quality, source) }),
  };
}

function expression(record: Record<string, unknown>, field: 'score' | 'filter', source: string): string {
  const given = record[field];
  if (given === undefined) return REPOCOD_LITE_SPEC[field];
  if (typeof given !== 'string' || given.trim() === '' || given.includes(';')) {
    throw new RepocodError(
      'config-invalid',
      `${source}: "${field}" must be one SQL expression over the tasks columns, without ";" (got ` +
        `${JSON.stringify(given)})`,
    );
  }
  return given;
}
