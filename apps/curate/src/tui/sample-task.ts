import type { TaskOverview } from '@repocod/pipeline';

/** Test support: a row of the tasks table with the fields a test cares about set. */
export function sampleTask(instanceId: string, overrides: Partial<TaskOverview> = {}): TaskOverview {
  return {
    instanceId,
    repository: 'demo',
    file: 'inventory/util.py',
    qualname: instanceId.split('.').at(-1) ?? instanceId,
    level: 'self-contained',
    complexity: 1,
    promptLines: 10,
    solutionLines: 5,
    promptTokens: 100,
    solutionTokens: 50,
    tests: 3,
    checksPassed: true,
    selected: true,
    validation: 'passed',
    ...overrides,
  };
}
