import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EvaluationGrade, EvaluationReport, EvaluationSpec } from '@repocod/evaluate';
import type { JobResult } from '@repocod/runner';
import { jobRunIds } from '@repocod/runner';

/** A model name as a folder name (`org/model` → `org__model`). */
export function modelFolder(model: string): string {
  return model.replace(/[/\\]/g, '__').replace(/[^\w.@+-]/g, '_');
}

/** The logs of one prediction: `<outDir>/<run id>/<model>/<instance>/`. */
export function taskLogFolder(outDir: string, runId: string, spec: EvaluationSpec): string {
  return join(outDir, runId, modelFolder(spec.prediction.model), spec.task.instanceId);
}

/** The model's patch, the test run's output and the graded results.json, in the prediction's folder. */
export function writeTaskLogs(
  folder: string,
  spec: EvaluationSpec,
  grade: EvaluationGrade,
  result: JobResult | null,
): void {
  mkdirSync(folder, { recursive: true });
  if (spec.modelPatch !== null) writeFileSync(join(folder, 'model.patch'), spec.modelPatch);
  const run = result?.runs[0];
  writeFileSync(join(folder, 'test_output.txt'), result?.patchError ?? run?.log ?? '');
  writeFileSync(
    join(folder, 'results.json'),
    `${JSON.stringify(
      {
        instance_id: spec.task.instanceId,
        model: spec.prediction.model,
        prediction: spec.prediction.source,
        outcome: grade.outcome,
        detail: grade.detail,
        failing_tests: grade.failingTests,
        tests:
          run?.results.map((test) => ({ node_id: test.nodeId, outcome: test.outcome, seconds: test.duration })) ?? [],
        run_ids: result === null ? [] : jobRunIds(result),
      },
      null,
      2,
    )}\n`,
  );
}

export interface WrittenReport {
  readonly model: string;
  readonly report: EvaluationReport;
  readonly file: string;
}

/** Each model's report, written to `<outDir>/<run id>/<model>/report.json`. */
export function writeReportFiles(
  outDir: string,
  runId: string,
  reports: readonly { readonly model: string; readonly report: EvaluationReport }[],
): WrittenReport[] {
  return reports.map(({ model, report }) => {
    const folder = join(outDir, runId, modelFolder(model));
    mkdirSync(folder, { recursive: true });
    const file = join(folder, 'report.json');
    writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
    return { model, report, file };
  });
}
