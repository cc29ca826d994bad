import type { ContextLevel, LevelMode } from '@repocod/core';
import { CONTEXT_LEVELS, LEVEL_MODES } from '@repocod/core';
import type { ReferenceTable } from './reference-table.js';

/**
 * The context-level mix of each level mode beside REPOCOD's two labellings of the full benchmark
 * (`full-v1`, the first, which REPOCOD-Lite was selected with; `full-v4`, the ACL paper's corrected
 * one): per repository the counts and shares, and the total-variation distance between our mix and
 * theirs, half the sum over the levels of |our share − their share|, in percentage points. A mix is
 * comparable only where every candidate was mined (`complete`); the averages are over those.
 */
export type LevelCounts = Readonly<Record<ContextLevel, number>>;

export interface RepositoryLevelMix {
  readonly repository: string;
  /** Every candidate mined: the tasks are the whole pool, as REPOCOD's table counts it. */
  readonly complete: boolean;
  readonly candidates: number;
  readonly mined: number;
  readonly tasks: number;
  /** Tasks per level under each mode (a task not labelled under a mode is not counted there). */
  readonly modes: Readonly<Record<LevelMode, LevelCounts>>;
}

/** A mode against one of REPOCOD's labellings. */
export interface MixDistance {
  /** Percentage points, 0 (same shares) to 100; null when either side has no task. */
  readonly distance: number | null;
  /** Levels where we have fewer tasks than REPOCOD: a faithful rule over a superset never comes up short. */
  readonly short: readonly ContextLevel[];
}

export const LEVEL_MIX_REFERENCES = ['full-v1', 'full-v4'] as const;
export type LevelMixReference = (typeof LEVEL_MIX_REFERENCES)[number];

/** The mode each labelling is reproduced by. */
export const MODE_OF_REFERENCE: Readonly<Record<LevelMixReference, LevelMode>> = {
  'full-v1': 'repocod-v1',
  'full-v4': 'repocod-v4',
};

export function totalVariation(ours: LevelCounts, theirs: LevelCounts): number | null {
  const sum = (counts: LevelCounts): number => CONTEXT_LEVELS.reduce((total, level) => total + counts[level], 0);
  const [a, b] = [sum(ours), sum(theirs)];
  if (a === 0 || b === 0) return null;
  return 50 * CONTEXT_LEVELS.reduce((total, level) => total + Math.abs(ours[level] / a - theirs[level] / b), 0);
}

export function referenceCounts(table: ReferenceTable, repository: string): LevelCounts | null {
  const row = table.repositories[repository];
  if (row === undefined) return null;
  return Object.fromEntries(CONTEXT_LEVELS.map((level) => [level, row[level].tasks])) as Record<ContextLevel, number>;
}

export function mixDistance(ours: LevelCounts, theirs: LevelCounts): MixDistance {
  return {
    distance: totalVariation(ours, theirs),
    short: CONTEXT_LEVELS.filter((level) => ours[level] < theirs[level]),
  };
}

/** Each mode's mean distance to each labelling over the complete repositories REPOCOD has. */
export function meanDistances(
  rows: readonly RepositoryLevelMix[],
  references: Readonly<Record<LevelMixReference, ReferenceTable>>,
): Record<LevelMode, Record<LevelMixReference, number | null>> {
  return Object.fromEntries(
    LEVEL_MODES.map((mode) => [
      mode,
      Object.fromEntries(
        LEVEL_MIX_REFERENCES.map((reference) => {
          const distances = rows.flatMap((row) => {
            const theirs = row.complete ? referenceCounts(references[reference], row.repository) : null;
            const distance = theirs === null ? null : totalVariation(row.modes[mode], theirs);
            return distance === null ? [] : [distance];
          });
          const mean = distances.length === 0 ? null : distances.reduce((a, b) => a + b, 0) / distances.length;
          return [reference, mean];
        }),
      ),
    ]),
  ) as Record<LevelMode, Record<LevelMixReference, number | null>>;
}

const SHORT_NAMES: Readonly<Record<ContextLevel, string>> = {
  'self-contained': 'self',
  'file-level': 'file',
  'repo-level': 'repo',
};

/** Markdown: a table per repository (REPOCOD's two rows, then each mode's), then the averages. */
export function levelMixMarkdown(
  rows: readonly RepositoryLevelMix[],
  references: Readonly<Record<LevelMixReference, ReferenceTable>>,
): string {
  const complete = rows.filter(
    (row) => row.complete && referenceCounts(references['full-v1'], row.repository) !== null,
  );
  const cells = (counts: LevelCounts): string => {
    const total = CONTEXT_LEVELS.reduce((sum, level) => sum + counts[level], 0);
    return CONTEXT_LEVELS.map((level) =>
      total === 0 ? `${counts[level]}` : `${counts[level]} (${((100 * counts[level]) / total).toFixed(0)}%)`,
    ).join(' | ');
  };
  // "short" is said of our modes only: REPOCOD's two labellings share one pool.
  const distanceCell = (ours: LevelCounts, theirs: LevelCounts | null, sayShort = true): string => {
    if (theirs === null) return '–';
    const { distance, short } = mixDistance(ours, theirs);
    const shortText =
      short.length === 0 || !sayShort ? '' : `, short: ${short.map((level) => SHORT_NAMES[level]).join(', ')}`;
    return distance === null ? '–' : `${distance.toFixed(1)}${shortText}`;
  };
  const lines: string[] = [
    "Level mix per repository: tasks per context level (share) under each mode, beside REPOCOD's first",
    "labelling (full-v1, REPOCOD-Lite's) and its corrected one (full-v4); the distance is the total variation",
    'between the two mixes in percentage points (0: the same shares), and "short" names a level where we have',
    'fewer tasks than REPOCOD. Averages are over the repositories where every candidate was mined',
    `(${complete.length === 0 ? 'none' : complete.map((row) => row.repository).join(', ')}); elsewhere the tasks are`,
    'the pool Lite-first mining reached, whose mix leans to the top-scored candidates.',
    '',
    '| repository | labelling | self-contained | file-level | repo-level | vs full-v1 | vs full-v4 |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const row of rows) {
    const v1 = referenceCounts(references['full-v1'], row.repository);
    const v4 = referenceCounts(references['full-v4'], row.repository);
    const pool = row.complete
      ? `all ${row.candidates} candidates mined`
      : `${row.mined} of ${row.candidates} candidates mined`;
    const name = `${row.repository} (${row.tasks} tasks; ${pool})`;
    if (v1 !== null) lines.push(`| ${name} | REPOCOD full-v1 | ${cells(v1)} | 0.0 | ${distanceCell(v1, v4, false)} |`);
    if (v4 !== null) lines.push(`| | REPOCOD full-v4 | ${cells(v4)} | ${distanceCell(v4, v1, false)} | 0.0 |`);
    for (const [index, mode] of LEVEL_MODES.entries()) {
      const label = v1 === null && index === 0 ? name : '';
      lines.push(
        `| ${label} | ${mode} | ${cells(row.modes[mode])} | ${distanceCell(row.modes[mode], v1)} | ` +
          `${distanceCell(row.modes[mode], v4)} |`,
      );
    }
  }
  const means = meanDistances(complete, references);
  const mean = (value: number | null): string => (value === null ? '–' : value.toFixed(1));
  lines.push(
    '',
    `Mean distance over the ${complete.length} repositories where every candidate was mined:`,
    '',
    '| labelling | vs full-v1 | vs full-v4 |',
    '|---|---|---|',
    ...LEVEL_MODES.map((mode) => `| ${mode} | ${mean(means[mode]['full-v1'])} | ${mean(means[mode]['full-v4'])} |`),
    '',
  );
  return lines.join('\n');
}
