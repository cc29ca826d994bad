import { RepocodError } from '@repocod/core';
import type { ReportTask } from './evaluation-report.js';
import type { InsertionMode } from './insertion-mode.js';
import type { SinceScope } from './since-scope.js';

/**
 * What an evaluation run scores, as the catalog keeps it with the run (its reports are made from it alone): the
 * tasks in scope and, for a run `--since DATE`, the date and the tasks it left out.
 */
export interface RunScope {
  readonly tasks: readonly ReportTask[];
  readonly since: SinceScope | null;
  /** How its completions were inserted; absent: lenient (insertion-mode.ts). */
  readonly insertion?: InsertionMode;
}

/**
 * The scope as stored text: a run without --since under the lenient insertion is its list of tasks, the form every
 * run had before --since (so those runs read back as they were written); another is `{since, tasks}`, with
 * `insertion` for a run under REPOCOD's.
 */
export function runScopeText(scope: RunScope): string {
  const repocod = scope.insertion === 'repocod';
  if (scope.since === null && !repocod) return JSON.stringify(scope.tasks);
  return JSON.stringify({ since: scope.since, ...(repocod ? { insertion: 'repocod' } : {}), tasks: scope.tasks });
}

/** The scope stored with run `runId` (either form of runScopeText). */
export function parseRunScope(text: string, runId: string): RunScope {
  const stored = JSON.parse(text) as unknown;
  if (Array.isArray(stored)) return { tasks: stored as ReportTask[], since: null };
  const object = stored as { since?: SinceScope | null; insertion?: InsertionMode; tasks?: ReportTask[] } | null;
  if (object === null || !Array.isArray(object.tasks) || object.since === undefined)
    throw new RepocodError(
      'catalog-error',
      `evaluation run ${runId}: its stored scope is neither tasks nor {since, tasks}`,
    );
  return {
    tasks: object.tasks,
    since: object.since,
    ...(object.insertion === 'repocod' ? { insertion: object.insertion } : {}),
  };
}
