import { CONTEXT_LEVELS } from '@repocod/core';
import type { TasksSummary } from '../../steps/tasks.js';
import { tasksStep } from '../../steps/tasks.js';
import type { RepositoryStage, StageContext, StageDefinition, StageProgress } from '../stage-contract.js';

/** The tasks of the mined functions, with their levels, patches and the patches' checks. */
const TASKS_RUN: RepositoryStage = {
  stage: 'tasks',
  scope: 'repository',
  async run(context, repository, progress) {
    return (await buildTasks(context, repository, progress)).summary;
  },
};

/** Lite-first mining builds each repository's tasks after its rounds: the stage runs on its own with `--all`. */
export const TASKS: StageDefinition = {
  stage: 'tasks',
  title: 'tasks, levels and patches',
  rows: 'per-repository',
  needs: ['prepare'],
  runner: (settings) => (settings.mineAll ? TASKS_RUN : null),
  stored: (_status, repository) =>
    repository !== undefined && repository.tasks > 0 ? `${repository.tasks} tasks` : null,
};

/** Shared with Lite-first mining, which builds each repository's tasks after its rounds. */
export async function buildTasks(
  { catalog, repositories, settings, state }: StageContext,
  repository: string,
  progress: StageProgress,
): Promise<{ summary: string; value: TasksSummary }> {
  const value = await tasksStep(catalog, await repositories.get(repository), {
    projectRoot: settings.projectRoot,
    executor: settings.executor,
    candidates: settings.candidates,
    changedSince: settings.changedSince,
    datedAgainst: settings.datedAgainst,
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
          : `no tasks: no function of reference ${reference} here has relevant tests (\`repocod reference show ` +
            `${reference} --unresolved\` lists the rows that resolve to none)`,
    };
  return {
    value,
    summary: `${value.tasks.length} tasks (${levels}); ${passing} pass their checks; levels by ${value.levelMode}`,
  };
}
