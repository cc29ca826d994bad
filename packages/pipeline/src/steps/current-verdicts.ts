import type { Catalog, TaskSummary, ValidationVerdictRow } from '@repocod/catalog';
import { taskHashOf } from '@repocod/validate';

/**
 * Each task's current validation verdict: its latest one for the task as it is now (the same content
 * hash). A verdict of an earlier build of the task says nothing about this one, so it is not current.
 */
export async function currentVerdicts(
  catalog: Catalog,
  tasks?: readonly TaskSummary[],
): Promise<Map<string, ValidationVerdictRow['status']>> {
  const summaries = tasks ?? (await catalog.taskSummaries());
  const hashes = new Map(summaries.map((task) => [task.instanceId, taskHashOf(task)]));
  const current = new Map<string, ValidationVerdictRow['status']>();
  // Newest first per task: the first row whose hash matches is the current verdict.
  for (const row of await catalog.validationVerdicts()) {
    if (!current.has(row.instanceId) && hashes.get(row.instanceId) === row.taskHash)
      current.set(row.instanceId, row.status);
  }
  return current;
}

/** The tasks whose current verdict is `failed`: the selection passes them over for the next in rank. */
export async function failedTaskIds(catalog: Catalog): Promise<string[]> {
  const verdicts = await currentVerdicts(catalog);
  return [...verdicts].filter(([, status]) => status === 'failed').map(([instanceId]) => instanceId);
}
