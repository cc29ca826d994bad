import { linesPatch } from '@repocod/core';
import type { Parser } from 'web-tree-sitter';
import type { NamedSpecTask } from '../bind-predictions.js';
import { completionSite } from '../completion-patch.js';
import type { EvaluationCheckout, SpecSetting } from '../evaluation-spec.js';
import type { Prediction, PredictionChange } from '../prediction.js';

/**
 * Test support: a checkout of one file, `pkg/box.py`, held in memory, its tasks (a pre patch removing
 * a body), and predictions for them, as the specs' tests bind them (completion-patch.test.ts patches the
 * same file).
 */
export const BOX = `import functools


class Box:
    @functools.cache
    def area(self, scale):
        """The area.

        Scaled.
        """
        width = self.width * scale
        return width * self.height


def top():
    """Top."""
    return 1
`;

export const BOX_COMMIT = `${'c0ffee'.repeat(6)}abcd`;

/** A task of the box whose code pre patch removes lines `start`-`end` (the body of a function, or not). */
export function boxTask(
  instanceId: string,
  start: number,
  end: number,
  extra: Partial<NamedSpecTask> = {},
): NamedSpecTask {
  return {
    instanceId,
    baseCommit: BOX_COMMIT,
    preCode: linesPatch('pkg/box.py', BOX, [{ start, end, lines: [] }]),
    preTest: '',
    goldCode: linesPatch('pkg/box.py', BOX, [{ start: 17, end: 17, lines: ['    return 2\n'] }]),
    goldTest: '--- a/tests/test_box.py\n+++ b/tests/test_box.py\n@@ -0,0 +1 @@\n+def test_area(): pass\n',
    problemCode: '',
    failToPass: ['tests/test_box.py::test_area'],
    meta: null,
    ...extra,
  };
}

/** Box.area's body (after its docstring) removed. */
export const AREA = boxTask('demo-box.area', 11, 12);
/** top's body removed. */
export const TOP = boxTask('demo-top', 17, 17);
/** Two blank lines removed: no function's body, so no site for a completion. */
export const NO_SITE = boxTask('demo-nowhere', 2, 3);

/** The box's checkout as the specs see it: sites found in the file held in memory. */
export function boxCheckout(parser: Parser): EvaluationCheckout & { readonly lookups: string[] } {
  const lookups: string[] = [];
  return {
    baseCommit: BOX_COMMIT,
    environmentKey: 'env-key',
    lookups,
    completionSite: (task) => {
      lookups.push(task.instanceId);
      return completionSite(parser, BOX, task.preCode);
    },
  };
}

/** The setting of the box's specs: the repository `demo`, a 30 s limit. */
export function boxSetting(parser: Parser, exitFirst = false): SpecSetting {
  return { repository: 'demo', checkout: boxCheckout(parser), timeoutSeconds: 30, exitFirst };
}

export function instancePrediction(instanceId: string, change: PredictionChange): Prediction {
  return { target: { kind: 'instance', instanceId }, model: 'm', change, source: 'p.jsonl:1' };
}

export function completion(text: string): PredictionChange {
  return { kind: 'completion', completion: text };
}
