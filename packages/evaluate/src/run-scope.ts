import { RepocodError } from '@repocod/core';
import type { ReportTask } from './evaluation-report.js';
import type { SinceScope } from './since-scope.js';

/**
 * What an evaluation run scores, as the catalog keeps it with the run (its reports are made from it alone): the
 * tasks in scope and, for a run `--since DATE`, the date and the tasks it left out.
 */
export interface RunScope {
  readonly tasks: readonly ReportTask[];
  readonly since: SinceScope | null;
}

/**
 * The scope as stored text: a run without --since is its list of tasks, the form every run had before --since
 * (so those runs read back as they were written); a run with it is `{since, tasks}`.
 */
export function runScopeText(scope: RunScope): string {
  return JSON.stringify(scope.since === null ? scope.tasks : { since: scope.since, tasks: scope.tasks });
}

/** The scope stored with run `runId` (either form of runScopeText). */
export function parseRunScope(text: string, runId: string): RunScope {
  const stored = JSON.parse(text) as unknown;
  if (Array.isArray(stored)) return { tasks: stored as ReportTask[], since: null };
  const object = stored as { since?: SinceScope; tasks?: ReportTask[] } | null;
  if (object === null || !Array.isArray(object.tasks) || object.since === undefined)
    throw new RepocodError(
      'catalog-error',
      `evaluation run ${runId}: its stored scope is neither tasks nor {since, tasks}`,
    );
  return { tasks: object.tasks, since: object.since };
}
