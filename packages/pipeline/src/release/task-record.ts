import type { StoredTask } from '@repocod/catalog';
import type { BodyDate } from '../candidates/body-dates.js';
import { taskFactsOf } from '../records/task-facts.js';

/**
 * Beside each version's Parquet: one JSON line per released task with what the seed's schema has no
 * column for (the names of the committed records: task-facts.ts), so that an evaluation reports
 * pass@1 per context level, complexity and solution length, and finds the manifest's repository of a
 * task. A task whose body the catalog dated (`--changed-since`) also has `body_commit` and `body_changed_at`
 * (UTC `YYYY-MM-DDTHH:MM:SSZ`), what `repocod evaluate --since` scores by; a task never dated has neither, so a
 * version built without dates keeps its bytes.
 */
export const TASK_RECORD = 'tasks.jsonl';

/** The lines of `tasks.jsonl`, in the tasks' order. */
export function taskRecords(tasks: readonly StoredTask[], bodyDates: ReadonlyMap<string, BodyDate>): string {
  return taskFactsOf(tasks)
    .map(({ task, facts }) => {
      const dated = bodyDates.get(task.instanceId);
      const body = dated === undefined ? {} : { body_commit: dated.bodyCommit, body_changed_at: dated.bodyChangedAt };
      return `${JSON.stringify({ ...facts, repo: task.repo, ...body })}\n`;
    })
    .join('');
}
