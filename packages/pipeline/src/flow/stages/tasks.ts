import { CONTEXT_LEVELS } from '@repocod/core';
import type { TasksSummary } from '../../steps/tasks.js';
import { tasksStage } from '../../steps/tasks.js';
import type { RepositoryStage, StageContext, StageProgress } from '../stage-contract.js';

/** The tasks of the mined functions, with their levels, patches and the patches' checks. */
export const TASKS: RepositoryStage = {
  stage: 'tasks',
  scope: 'repository',
  async run(context, repository, progress) {
    return (await buildTasks(context, repository, progress)).summary;
  },
};

/** Shared with Lite-first mining, which builds each repository's tasks after its rounds. */
export async function buildTasks(
  { catalog, common, settings, state }: StageContext,
  repository: string,
  progress: StageProgress,
): Promise<{ summary: string; value: TasksSummary }> {
  const value = await tasksStage(catalog, {
    ...common,
    repository,
    workers: settings.workers,
    repeat: settings.repeat,
    miningKey: state.miningKeys.get(repository),
    levels: settings.spec.levels,
    reference: settings.spec.reference,
    allowNoTasks: true,
    onEvent: (event) => {
      if (event.kind === 'tasks-built')
        progress.step(0, event.tasks, `${event.tasks} tasks built; checking their patches`);
      if (event.kind === 'task-checked') {
        progress.step(event.done, event.total, event.instanceId);
        if (!event.passed)
          progress.problem(`${event.instanceId}: its patches fail a check (repocod show ${event.instanceId})`);
      }
    },
  });
  const levels = CONTEXT_LEVELS.map((level) => `${level} ${value.byLevel[level] ?? 0}`).join(', ');
  const passing = value.tasks.length - value.failedChecks.length;
  const { reference } = settings.spec;
  if (value.tasks.length === 0)
    return {
      value,
      summary:
        reference === undefined
          ? 'no tasks: mining found no function with relevant tests (Lite-first may mine none)'
          : `no tasks: no function of reference ${reference} here has relevant tests (\`repocod reference show \
${reference} --unresolved\` lists the rows that resolve to none)`,
    };
  return {
    value,
    summary: `${value.tasks.length} tasks (${levels}); ${passing} pass their checks; levels by ${value.levelMode}`,
  };
}
