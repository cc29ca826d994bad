import { loadPythonParser } from '@repocod/python';
import type { PytestRun } from '@repocod/runner';
import { describe, expect, it } from 'vitest';
import { EXIT_FIRST_ARGS } from './evaluation-job.js';
import type { EvaluationSpec } from './evaluation-spec.js';
import { evaluationSpec, gradeSpecRun, gradeWithoutRun } from './evaluation-spec.js';
import {
  AREA,
  BOX_COMMIT,
  boxSetting,
  boxTask,
  completion,
  instancePrediction,
  NO_SITE,
  TOP,
} from './testing/box-checkout.js';

// The evaluation keys below are those the pipeline's bind (steps/evaluate.ts, before the spec) gave the
// same predictions: a catalog's stored evaluations stay current across the move.
const parser = await loadPythonParser();
const setting = boxSetting(parser);
const AREA_PRE = AREA.preCode;
const TESTS = ['tests/test_box.py::test_area'];

/** The spec's fields the old binding had, and its job. */
const bound = (spec: EvaluationSpec) => ({
  evaluationKey: spec.evaluationKey,
  modelPatch: spec.modelPatch,
  failure: spec.failure,
  job: spec.job,
});

describe('evaluationSpec', () => {
  it("puts a completion's body after the prompt, its job running it between the pre state and hidden tests", () => {
    const prediction = instancePrediction(
      AREA.instanceId,
      completion('width = self.width * scale\nreturn width * self.height\n'),
    );
    const spec = evaluationSpec(prediction, AREA, setting);
    const modelPatch = `diff --git a/pkg/box.py b/pkg/box.py
--- a/pkg/box.py
+++ b/pkg/box.py
@@ -8,6 +8,8 @@
 
         Scaled.
         """
+        width = self.width * scale
+        return width * self.height
 
 
 def top():
`;
    expect(bound(spec)).toEqual({
      evaluationKey: '7648897a113c3f0cd8cfd11f5a34b9f295fc5e0c834957c935e96286afa6e005',
      modelPatch,
      failure: null,
      job: {
        repository: 'demo',
        patches: [AREA_PRE, modelPatch, AREA.goldTest],
        tests: TESTS,
        repeat: 1,
        timeoutSeconds: 30,
      },
    });
    expect(spec.task).toStrictEqual({
      instanceId: AREA.instanceId,
      repository: 'demo',
      baseCommit: BOX_COMMIT,
      preCode: AREA_PRE,
      preTest: '',
      goldCode: AREA.goldCode,
      goldTest: AREA.goldTest,
      failToPass: TESTS,
    });
    expect(spec.prediction).toBe(prediction);
  });

  it('with exitFirst, keys and runs the job with pytest -x', () => {
    const spec = evaluationSpec(
      instancePrediction(AREA.instanceId, completion('return 0')),
      AREA,
      boxSetting(parser, true),
    );
    expect(spec.evaluationKey).toBe('ec273bcd11e6b4bb1c02252a7863e3d239e97013106991158932e5ac02c46ab1');
    expect(spec.job?.pytestArgs).toEqual(EXIT_FIRST_ARGS);
    expect(spec.exitFirst).toBe(true);
  });

  it('replaces the function from its def line with a whole definition', () => {
    const spec = evaluationSpec(
      instancePrediction(TOP.instanceId, completion('```python\ndef top():\n    return 2\n```')),
      TOP,
      setting,
    );
    expect(bound(spec)).toMatchObject({
      evaluationKey: '896eda23b07d8b8ead563ac2089e234d4c079dd2a6094ea30017a13265525691',
      modelPatch: `diff --git a/pkg/box.py b/pkg/box.py
--- a/pkg/box.py
+++ b/pkg/box.py
@@ -12,5 +12,5 @@
         return width * self.height
 
 
-def top():
-    """Top."""
+def top():
+    return 2
`,
      failure: null,
    });
    expect(spec.job?.patches).toHaveLength(3);
  });

  it('runs nothing for an empty prediction, nor for a completion without code, and grades them empty', () => {
    const empty = evaluationSpec(instancePrediction(AREA.instanceId, { kind: 'empty' }), AREA, setting);
    expect(bound(empty)).toEqual({
      evaluationKey: '6795a900610e099f9ca9ff4841bd0b438bd54aa58f3ce11e2f3156c5320e0217',
      modelPatch: null,
      failure: null,
      job: null,
    });
    const fence = evaluationSpec(instancePrediction(AREA.instanceId, completion('```python\n```')), AREA, setting);
    expect(bound(fence)).toEqual({
      evaluationKey: 'c0ad24650696683254b32e43a3653fdcbcb2b9b49cbd2a85c3ababf6b17eb554',
      modelPatch: null,
      failure: null,
      job: null,
    });
    expect(gradeWithoutRun(empty)).toEqual({ outcome: 'empty', detail: 'the prediction is empty', failingTests: [] });
  });

  it('ends a diff with the newline a JSON string lost, and looks for no site', () => {
    const checkoutSetting = boxSetting(parser);
    const patch = '--- a/pkg/box.py\n+++ b/pkg/box.py\n@@ -17 +17 @@\n-x\n+y';
    const spec = evaluationSpec(instancePrediction(TOP.instanceId, { kind: 'patch', patch }), TOP, checkoutSetting);
    expect(bound(spec)).toMatchObject({
      evaluationKey: '3a1ee00be5daf661b11e3757d37de2b9e98cd53002a41082d9ff7c3fcd327533',
      modelPatch: `${patch}\n`,
      failure: null,
    });
    expect(checkoutSetting.checkout).toMatchObject({ lookups: [] });
  });

  it('fails a completion with no site to go to, naming why', () => {
    const spec = evaluationSpec(instancePrediction(NO_SITE.instanceId, completion('return 1')), NO_SITE, setting);
    const failure = {
      outcome: 'error',
      detail:
        'the completion has no place to go: pkg/box.py: no function whose prompt ends at line 1 and whose body the ' +
        'pre ' +
        'patch removes',
      failingTests: [],
    };
    expect(bound(spec)).toEqual({
      evaluationKey: '4453db2371419ef4961e7b2bff7db96b486da58cab3d63f2e7819fb5705a9404',
      modelPatch: null,
      failure,
      job: null,
    });
    expect(gradeWithoutRun(spec)).toEqual(failure);
  });

  it("fails a task of another base commit than the checkout's", () => {
    const elsewhere = boxTask('demo-elsewhere', 11, 12, { baseCommit: 'f'.repeat(40) });
    const spec = evaluationSpec(instancePrediction(elsewhere.instanceId, completion('return 1')), elsewhere, setting);
    expect(bound(spec)).toEqual({
      evaluationKey: '7049fefaa51275498b41b1ca7a8c88a450f8b0760c8906a00563eb7018478ddb',
      modelPatch: null,
      failure: {
        outcome: 'error',
        detail:
          `the task's base commit ffffffffffff is not the prepared checkout's ${BOX_COMMIT.slice(0, 12)}: ` +
          `evaluate with the manifest and sources the release was built with`,
        failingTests: [],
      },
      job: null,
    });
  });
});

describe('gradeSpecRun', () => {
  const spec = evaluationSpec(instancePrediction(AREA.instanceId, completion('return 0')), AREA, setting);
  const run: PytestRun = {
    status: 'ok',
    exitCode: 1,
    durationSeconds: 1,
    log: '',
    network: 'isolated',
    artifact: null,
    results: [],
  };

  it("counts the model's patch second, after the code pre patch", () => {
    const grade = gradeSpecRun(spec, { patchError: 'patch 2 of 3 does not apply: x', runs: [] });
    expect(grade).toMatchObject({
      outcome: 'patch-failed',
      detail: "the model's patch does not apply: patch 2 of 3 does not apply: x",
    });
  });

  it('grades a run by its FAIL_TO_PASS tests', () => {
    const grade = gradeSpecRun(spec, {
      patchError: null,
      runs: [{ ...run, results: [{ nodeId: TESTS[0] as string, outcome: 'passed', duration: 0.1, message: null }] }],
    });
    expect(grade).toEqual({ outcome: 'resolved', detail: '1 of 1 tests pass', failingTests: [] });
  });
});
