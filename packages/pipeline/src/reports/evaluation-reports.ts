import type { EvaluationStore, StoredEvaluation } from '@repocod/catalog';
import { RepocodError } from '@repocod/core';
import type { EvaluationOutcome, EvaluationReport, HtmlTaskRow } from '@repocod/evaluate';
import { EVALUATION_OUTCOMES, evaluationReport, parseRunScope } from '@repocod/evaluate';

export interface ModelReport {
  readonly model: string;
  readonly report: EvaluationReport;
  /** Every task in scope with its outcome (`no prediction` when the model gave none), for the HTML page. */
  readonly rows: readonly HtmlTaskRow[];
}

/**
 * The reports of an evaluation run, one per model, made from the catalog alone: the run's scope (the release's
 * tasks with their level, complexity and length, and for a run --since its date and the tasks it left out, stored
 * when the run started) and the outcome of every evaluation stored since, so a run that was stopped still has its
 * report.
 */
export async function evaluationReports(catalog: EvaluationStore, runId: string): Promise<ModelReport[]> {
  const run = await catalog.evaluationRun(runId);
  if (run === null) {
    const known = (await catalog.evaluationRuns()).map((summary) => summary.runId);
    throw new RepocodError(
      'usage',
      `no evaluation run ${runId} in the catalog (runs: ${known.slice(0, 10).join(', ') || 'none'}; ` +
        `repocod evaluate --runs lists them)`,
    );
  }
  const { tasks, since, insertion } = parseRunScope(run.tasks, runId);
  const rows = await catalog.evaluations(runId);
  const models = [...new Set(rows.map((row) => row.model))].sort();
  return models.map((model) => {
    const ofModel = new Map(rows.filter((row) => row.model === model).map((row) => [row.instanceId, row]));
    const results = [...ofModel.values()].map((row) => ({ instanceId: row.instanceId, outcome: outcomeOf(row) }));
    return {
      model,
      report: evaluationReport(runId, model, tasks, results, since, insertion),
      rows: tasks.map((task) => {
        const row = ofModel.get(task.instanceId);
        return {
          instanceId: task.instanceId,
          repository: task.repository,
          level: task.level,
          outcome: row?.outcome ?? 'no prediction',
          detail: row?.detail ?? '',
        };
      }),
    };
  });
}

function outcomeOf(row: StoredEvaluation): EvaluationOutcome {
  if (!(EVALUATION_OUTCOMES as readonly string[]).includes(row.outcome))
    throw new RepocodError(
      'catalog-error',
      `evaluation of ${row.instanceId} in run ${row.runId}: unknown outcome "${row.outcome}"`,
    );
  return row.outcome as EvaluationOutcome;
}
