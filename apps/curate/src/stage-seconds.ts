import type { Catalog } from '@repocod/pipeline';

/**
 * Records a stage's wall time for a repository as a flow run does, so that `repocod record` reports
 * the time of the last run that did the stage, whether the flow or the stage's own command ran it.
 */
export async function recordStageSeconds(
  catalog: Catalog,
  repository: string,
  stage: 'mine' | 'tasks' | 'validate',
  started: number,
): Promise<void> {
  const seconds = (performance.now() - started) / 1000;
  await catalog.recordStageTime({ repository, stage, seconds, finishedAt: new Date() });
}
