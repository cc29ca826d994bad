import { ChangedSinceError } from '@repocod/runner';

/**
 * The tasks an evaluation `--since DATE` scores and those it leaves out, with why. A task is scored when its body
 * (the code lines the model writes) was last written or changed on or after the date, by the body date its release
 * gives it (tasks.jsonl's `body_changed_at`); a task the release gives no date is left out, never guessed new.
 */
export interface SinceScope {
  /** The date, UTC `YYYY-MM-DDTHH:MM:SSZ` (as parseChangedSince gives it). */
  readonly since: string;
  readonly scored: number;
  /** Tasks whose body last changed before the date, by instance id. */
  readonly changedBefore: readonly string[];
  /** Tasks the release gives no body date, by instance id. */
  readonly withoutBodyDate: readonly string[];
}

/**
 * The tasks whose body changed on or after `since`, in their order, and the scope that says what was left out.
 * A release none of whose tasks has a body date, and a date after every body's, select nothing: both are
 * ChangedSinceErrors naming the release (`where`) and what to do.
 */
export function tasksSince<T extends { readonly instanceId: string }>(
  tasks: readonly T[],
  bodyChangedAt: (task: T) => string | null,
  since: string,
  where: string,
): { readonly tasks: T[]; readonly scope: SinceScope } {
  const cutoff = Date.parse(since);
  const scored: T[] = [];
  const changedBefore: string[] = [];
  const withoutBodyDate: string[] = [];
  let newest: string | null = null;
  for (const task of tasks) {
    const changedAt = bodyChangedAt(task);
    if (changedAt === null) withoutBodyDate.push(task.instanceId);
    else if (Date.parse(changedAt) >= cutoff) scored.push(task);
    else changedBefore.push(task.instanceId);
    if (changedAt !== null && (newest === null || Date.parse(changedAt) > Date.parse(newest))) newest = changedAt;
  }
  if (newest === null)
    throw new ChangedSinceError(
      since,
      'no-dated-task',
      `--since ${since}: no task of ${where} has a body date (its tasks.jsonl has no body_changed_at: a version ` +
        `published from a catalog whose bodies were never dated, such as one built without --changed-since); ` +
        `evaluate it ` +
        `without --since, or evaluate a fresh version`,
    );
  if (scored.length === 0)
    throw new ChangedSinceError(
      since,
      'no-task-since',
      `--since ${since}: no task of ${where} has a body changed on or after it (the newest body changed ${newest}); ` +
        `give an earlier date`,
    );
  return { tasks: scored, scope: { since, scored: scored.length, changedBefore, withoutBodyDate } };
}
