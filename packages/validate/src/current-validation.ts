import type { StoredValidation, TaskSummary, TaskStore, ValidationStore } from '@repocod/catalog';
import type { ValidationStatus } from '@repocod/core';
import { taskHashOf } from './validation-jobs.js';

/*
 * The one rule of which validation speaks for a task, stated here and nowhere else: a task's current validation is
 * its newest validation of the task as it is now, the same task hash (validation-jobs.ts: taskHash, taskHashOf).
 * A validation of an earlier build of the task (another hash) says nothing about this one, and a newer validation
 * of the same build supersedes an older one. Newest is by `validatedAt`, ties broken by validation key, as the
 * validation store orders its rows; rows read without their time (the verdicts alone) keep the store's order.
 */

/** What the rule reads of a validation row. */
export interface HashedValidation {
  readonly instanceId: string;
  readonly taskHash: string;
  readonly validatedAt?: Date;
  readonly validationKey?: string;
}

/** Each task's current validation among `rows`, for the tasks of `hashes` (instance id to its current hash). */
export function currentValidations<R extends HashedValidation>(
  rows: Iterable<R>,
  hashes: ReadonlyMap<string, string>,
): Map<string, R> {
  const current = new Map<string, R>();
  for (const row of rows) {
    if (hashes.get(row.instanceId) !== row.taskHash) continue;
    const held = current.get(row.instanceId);
    if (held === undefined || supersedes(row, held)) current.set(row.instanceId, row);
  }
  return current;
}

/** The current validation of each given task, read from the store with its evidence (checks, tests, logs). */
export async function readCurrentValidations(
  store: Pick<ValidationStore, 'validations'>,
  tasks: readonly { readonly instanceId: string; readonly hash: string }[],
): Promise<Map<string, StoredValidation>> {
  if (tasks.length === 0) return new Map();
  const rows = await store.validations({ instanceIds: tasks.map((task) => task.instanceId) });
  return currentValidations(rows, new Map(tasks.map((task) => [task.instanceId, task.hash])));
}

/** Each task's current verdict alone (no evidence read): of the given tasks, else of every task of the catalog. */
export async function readCurrentVerdicts(
  catalog: Pick<TaskStore, 'taskSummaries'> & Pick<ValidationStore, 'validationVerdicts'>,
  tasks?: readonly TaskSummary[],
): Promise<Map<string, ValidationStatus>> {
  const summaries = tasks ?? (await catalog.taskSummaries());
  const hashes = new Map(summaries.map((task) => [task.instanceId, taskHashOf(task)]));
  const current = currentValidations(await catalog.validationVerdicts(), hashes);
  return new Map([...current].map(([instanceId, row]) => [instanceId, row.status]));
}

function supersedes(row: HashedValidation, held: HashedValidation): boolean {
  if (row.validatedAt === undefined || held.validatedAt === undefined) return false;
  const newer = row.validatedAt.getTime() - held.validatedAt.getTime();
  if (newer !== 0) return newer > 0;
  return (row.validationKey ?? '') < (held.validationKey ?? '');
}
