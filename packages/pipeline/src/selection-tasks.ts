import type { Catalog, StoredTask } from '@repocod/catalog';
import { RepocodError } from '@repocod/core';

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
  const tasks = selection.picks
    .flatMap((pick) => byId.get(pick.instanceId) ?? [])
    .sort((a, b) => (a.instanceId < b.instanceId ? -1 : 1));
  if (tasks.length !== selection.picks.length) {
    throw new RepocodError(
      'usage',
      `selection ${selection.selectionId} names ${selection.picks.length - tasks.length} task(s) no longer in the \
catalog (tasks were rebuilt); run \`repocod select\` again`,
    );
  }
  return { selectionId: selection.selectionId, spec: selection.spec, tasks };
}
