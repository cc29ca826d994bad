import type { Catalog, RankedTask } from '@repocod/catalog';
import type { LevelMode } from '@repocod/core';
import { contentHash, DEFAULT_LEVEL_MODE, RepocodError } from '@repocod/core';
import type { SelectionLevel, SelectionSpec } from '@repocod/tasks';
import { SELECTION_LEVELS } from '@repocod/tasks';
import { readCurrentVerdicts } from '@repocod/validate';
import type { QualityRemoval } from './quality-removals.js';
import { qualityRemovals } from './quality-removals.js';
import { checkOneEraPerRepository } from '../release/released-task.js';

export interface LevelCut {
  readonly level: SelectionLevel;
  readonly quota: number;
  /** Tasks of the level that passed their checks and the filter. */
  readonly available: number;
  readonly picked: number;
  /** Score of the last pick; null when nothing was picked. */
  readonly cutoff: number | null;
  /** Score of the best task left out; null when none was. */
  readonly firstLeftOut: number | null;
}

export interface SelectSummary {
  readonly selectionId: string;
  readonly spec: SelectionSpec;
  readonly picks: readonly RankedTask[];
  readonly levels: readonly LevelCut[];
  /** Levels with fewer tasks than their quota: all of them were taken. */
  readonly short: readonly LevelCut[];
  /** Tasks passed over because their current validation failed (the next of their level took the place). */
  readonly passedOver: readonly string[];
  /** Tasks the spec's quality rules keep out, each with the rules it breaks (none without `quality`). */
  readonly qualityRemoved: readonly QualityRemoval[];
}

/**
 * `repocod select`: ranks every checked task of every repository per level by the spec's score (SQL
 * in DuckDB), takes each level's quota, and stores the selection with its spec. A task whose current
 * validation failed is passed over when its level has enough other tasks: a Lite is made of valid tasks,
 * so the next of its level is picked instead (and validated in turn); a level short of tasks keeps its
 * picks as they were. The id is a hash of the spec and of the picks, so the same spec on the same tasks
 * and verdicts gives the same selection.
 */
export async function selectStep(
  catalog: Catalog,
  given: SelectionSpec,
  source = 'the selection spec',
  options: { readonly referenceTasks?: readonly string[] } = {},
): Promise<SelectSummary> {
  const labelled: SelectionSpec = { ...given, levels: given.levels ?? (await labelledMode(catalog)) };
  const mode = labelled.levels as LevelMode;
  const unlabelled = await catalog.relabelTasks(mode);
  if (unlabelled.length > 0) {
    const repositories = [
      ...new Set(
        (await catalog.taskSummaries())
          .filter((task) => unlabelled.includes(task.instanceId))
          .map((task) => task.repository),
      ),
    ];
    throw new RepocodError(
      'usage',
      `${unlabelled.length} task(s) have no label under ${mode} (built before the level modes), e.g. ` +
        `${unlabelled[0]}; run \`repocod tasks ${repositories.join(' ')}\` again (nothing is mined again), then select`,
    );
  }
  const qualityRemoved = labelled.quality === undefined ? [] : await qualityRemovals(catalog, labelled.quality);
  const pool = withoutTasks(
    referencePool(labelled, options.referenceTasks),
    qualityRemoved.map((removal) => removal.instanceId),
  );
  const spec: SelectionSpec =
    labelled.keepAll === true ? { ...labelled, quotas: await poolCounts(catalog, pool.filter) } : labelled;
  // A task whose current verdict failed is passed over for the next of its rank.
  const failed =
    labelled.keepAll === true
      ? []
      : [...(await readCurrentVerdicts(catalog))].filter(([, status]) => status === 'failed').map(([id]) => id);
  let ranked: RankedTask[];
  try {
    ranked = await catalog.rankTasks({ ...spec, filter: pool.filter }, failed);
  } catch (error) {
    throw new RepocodError(
      'config-invalid',
      `${source}: the score or the filter is not valid SQL over the tasks columns: ` +
        `${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
  const picks = ranked.filter((task) => task.picked);
  checkOneEraPerRepository(picks, `the picks of ${source}`, (names) => {
    const [first] = names;
    return (
      `give the spec a filter over the tasks' repository column, which names each commit (e.g. "filter": ` +
      `"repository <> '${first}'"), or build the other commit in a catalog of its own`
    );
  });
  const levels = SELECTION_LEVELS.map((level): LevelCut => {
    const ofLevel = ranked.filter((task) => task.level === level);
    const picked = ofLevel.filter((task) => task.picked);
    return {
      level,
      quota: spec.quotas[level],
      available: ofLevel.length,
      picked: picked.length,
      cutoff: picked.at(-1)?.score ?? null,
      firstLeftOut: ofLevel.find((task) => !task.picked)?.score ?? null,
    };
  });
  const selectionId = contentHash(JSON.stringify({ spec, picks: picks.map((pick) => pick.instanceId) })).slice(0, 16);
  await catalog.saveSelection(selectionId, JSON.stringify(spec), picks);
  const short = levels.filter((level) => level.available < level.quota);
  const failedSet = new Set(failed);
  const passedOver = ranked
    .filter((task) => !task.picked && failedSet.has(task.instanceId))
    .map((task) => task.instanceId);
  return { selectionId, spec, picks, levels, short, passedOver, qualityRemoved };
}

/** The pool's filter without the given tasks (the quality rules' removals). */
function withoutTasks(pool: { readonly filter: string }, ids: readonly string[]): { readonly filter: string } {
  if (ids.length === 0) return pool;
  return { filter: `(${pool.filter}) AND instance_id NOT IN (${ids.map(sqlString).join(', ')})` };
}

function sqlString(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

/**
 * The filter of a spec over a reference's tasks: its own, and the task being one of the reference's
 * (instance ids the caller resolved, see referenceTaskIds). A spec without a reference keeps its filter.
 */
function referencePool(spec: SelectionSpec, tasks: readonly string[] | undefined): { readonly filter: string } {
  if (spec.reference === undefined) return { filter: spec.filter };
  if (tasks === undefined)
    throw new RepocodError('usage', `the spec names reference ${spec.reference}: its tasks must be resolved first`);
  const ids = tasks.length === 0 ? 'NULL' : tasks.map(sqlString).join(', ');
  return { filter: `(${spec.filter}) AND instance_id IN (${ids})` };
}

/** Every task the filter keeps, per level: the quotas of a selection that keeps all of them. */
async function poolCounts(catalog: Catalog, filter: string): Promise<SelectionSpec['quotas']> {
  const everything = { 'self-contained': 1e9, 'file-level': 1e9, 'repo-level': 1e9 };
  const ranked = await catalog.rankTasks({ score: '0', filter, quotas: everything }, []);
  const count = (level: SelectionLevel): number => ranked.filter((task) => task.level === level).length;
  return {
    'self-contained': count('self-contained'),
    'file-level': count('file-level'),
    'repo-level': count('repo-level'),
  };
}

/**
 * The mode a spec that names none is over: the one every task is labelled with (the tasks stage's,
 * from `--levels` or the manifests), DEFAULT_LEVEL_MODE when there are no tasks. Tasks labelled under
 * different modes need `--levels` to say which.
 */
async function labelledMode(catalog: Catalog): Promise<LevelMode> {
  const modes = [...new Set((await catalog.taskSummaries()).map((task) => task.levelMode))].sort();
  if (modes.length <= 1) return modes[0] ?? DEFAULT_LEVEL_MODE;
  throw new RepocodError(
    'usage',
    `the tasks are labelled under different level modes (${modes.join(', ')}); choose one with --levels (or ` +
      `"levels" in the spec)`,
  );
}
