import type { Catalog } from '@repocod/catalog';
import type { PrepareOptions } from '../steps/prepare.js';
import { prepareStep } from '../steps/prepare.js';
import type { TasksStepOptions, TasksSummary } from '../steps/tasks.js';
import { tasksStep } from '../steps/tasks.js';

export interface TasksCommandOptions extends PrepareOptions, TasksStepOptions {
  readonly repository: string;
}

/**
 * `repocod tasks`: the checkout and its environment made or reused, then every mined function with relevant tests
 * becomes a task (see tasksStep).
 */
export async function runTasksCommand(catalog: Catalog, options: TasksCommandOptions): Promise<TasksSummary> {
  return tasksStep(catalog, await prepareStep(options.repository, options), options);
}
