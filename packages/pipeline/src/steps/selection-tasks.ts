import type { Catalog, StoredTask } from '@repocod/catalog';
import type { LevelMode } from '@repocod/core';
import { LEVEL_MODES, RepocodError } from '@repocod/core';

export interface SelectionTasks {
  readonly selectionId: string;
  /** The selection spec as stored (JSON). */
  readonly spec: string;
  /** The selected tasks, by instance id. */
  readonly tasks: readonly StoredTask[];
}

/** The tasks of a selection (default: the latest), refusing a selection whose tasks were rebuilt since. */
export async function tasksOfSelection(catalog: Catalog, selectionId?: string): Promise<SelectionTasks> {
  const selection = await catalog.selection(selectionId);
  if (selection === null) {
    throw new RepocodError(
      'usage',
      selectionId === undefined
        ? 'no selection in the catalog yet; run `repocod select` first'
        : `no selection ${selectionId} in the catalog; \`repocod sql "select * from selections"\` lists them`,
    );
  }
  const byId = new Map((await catalog.tasks()).map((task) => [task.instanceId, task]));
  const mode = selectionLevelMode(selection.spec);
  // Each task as the selection saw it: its level is the pick's, under the selection's mode, whatever mode
  // the tasks were re-labelled under since.
  const tasks = selection.picks
    .flatMap((pick): StoredTask[] => {
      const task = byId.get(pick.instanceId);
      if (task === undefined) return [];
      return [{ ...task, level: pick.level, levelMode: mode ?? 'deps' }];
    })
    .sort((a, b) => (a.instanceId < b.instanceId ? -1 : 1));
  if (tasks.length !== selection.picks.length) {
    throw new RepocodError(
      'usage',
      `selection ${selection.selectionId} names ${selection.picks.length - tasks.length} task(s) no longer in the ` +
        `catalog (tasks were rebuilt); run \`repocod select\` again`,
    );
  }
  return { selectionId: selection.selectionId, spec: selection.spec, tasks };
}

/** The level mode a stored selection spec names; null for a selection made before the modes (then `deps`'s). */
export function selectionLevelMode(spec: string): LevelMode | null {
  const levels = (JSON.parse(spec) as { levels?: unknown }).levels;
  return typeof levels === 'string' && (LEVEL_MODES as readonly string[]).includes(levels)
    ? (levels as LevelMode)
    : null;
}
