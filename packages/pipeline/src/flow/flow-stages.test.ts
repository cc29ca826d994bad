import { describe, expect, it } from 'vitest';
import { FLOW_STAGES } from './flow-events.js';
import { flowStages } from './flow.js';

describe('flowStages', () => {
  it('runs the stages in the order of the flow, Lite-first mining as one stage that spans the repositories', () => {
    const liteFirst = flowStages({ mineAll: false });
    expect(liteFirst.map((stage) => `${stage.stage}:${stage.scope}`)).toEqual([
      'prepare:repository',
      'extract:repository',
      'mine:spanning',
      'select:all',
      'validate:all',
      'publish:all',
    ]);
    const all = flowStages({ mineAll: true });
    expect(all.map((stage) => stage.stage)).toEqual([...FLOW_STAGES]);
    expect(all.filter((stage) => stage.scope === 'repository').map((stage) => stage.stage)).toEqual([
      'prepare',
      'extract',
      'mine',
      'tasks',
    ]);
  });
});
