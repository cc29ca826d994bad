import { loadPythonParser } from '@repocod/python';
import { describe, expect, it } from 'vitest';
import { bindPredictions } from './bind-predictions.js';
import type { Prediction } from './prediction.js';
import { AREA, boxSetting, completion, instancePrediction, NO_SITE, TOP } from './testing/box-checkout.js';

const parser = await loadPythonParser();

const repocod = (repository: string, functionName: string): Prediction => ({
  target: { kind: 'repocod', repository, functionName, prompt: null },
  model: 'm',
  change: completion('def top():\n    return 3\n'),
  source: `r.json: ${repository}/0`,
});

describe('bindPredictions', () => {
  it("matches REPOCOD's prediction by function name, its names from the checkout's sites", () => {
    const setting = boxSetting(parser);
    const bound = bindPredictions([repocod('demo', 'box.top')], [AREA, TOP, NO_SITE], setting);
    expect(bound.problems).toEqual([]);
    expect(bound.specs.map((spec) => [spec.prediction.target, spec.task.instanceId, spec.evaluationKey])).toEqual([
      [
        { kind: 'instance', instanceId: TOP.instanceId },
        TOP.instanceId,
        // As the pipeline's bind gave it before the spec.
        'bc46f8c817df7060cfae122c9e529362f20df4a02521d664f67fe95746b3af56',
      ],
    ]);
    expect(bound.specs[0]?.modelPatch).toContain('+def top():\n+    return 3\n');
    // Every task named once (a task without a site keeps an empty name), then the matched one bound.
    expect(setting.checkout).toMatchObject({ lookups: [AREA, TOP, NO_SITE, TOP].map((task) => task.instanceId) });
  });

  it("names tasks from tasks.jsonl when the release has it, and REPOCOD's unmatched prediction is a problem", () => {
    const setting = boxSetting(parser);
    const named = { ...TOP, meta: { file: 'pkg/box.py', qualname: 'top' } };
    const bound = bindPredictions([repocod('demo', 'box.top'), repocod('demo', 'nothing')], [named], setting);
    expect(bound.specs.map((spec) => spec.task.instanceId)).toEqual([TOP.instanceId]);
    expect(bound.problems).toEqual([
      { source: 'r.json: demo/0', field: 'function_name', message: 'no task of demo is named nothing' },
    ]);
    expect(setting.checkout).toMatchObject({ lookups: [TOP.instanceId] });
  });

  it("binds only the repository's predictions, and names no task when none is REPOCOD's", () => {
    const setting = boxSetting(parser);
    const predictions = [
      instancePrediction(AREA.instanceId, { kind: 'empty' }),
      instancePrediction('other-task', { kind: 'empty' }),
      repocod('other', 'box.top'),
    ];
    const bound = bindPredictions(predictions, [AREA, TOP], setting);
    expect(bound).toMatchObject({ problems: [], specs: [{ task: { instanceId: AREA.instanceId }, job: null }] });
    expect(bound.specs).toHaveLength(1);
    expect(setting.checkout).toMatchObject({ lookups: [] });
  });
});
