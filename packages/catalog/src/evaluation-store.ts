import { DOUBLE, listValue, TIMESTAMP, VARCHAR } from '@duckdb/node-api';
import type { CatalogEngine } from './catalog-engine.js';
import { inTransaction, readRows, TEXT_LIST } from './catalog-engine.js';
import { double, nullableText, type Row, text, textList, timestamp, timestampValueOf } from './typed-cells.js';

/** One evaluation run: the release it evaluated and its tasks in scope (with what a report groups by). */
export interface EvaluationRun {
  readonly runId: string;
  readonly release: string;
  readonly version: string;
  /** The tasks in scope as JSON text (the evaluate package's ReportTask list); read back by the caller. */
  readonly tasks: string;
  readonly startedAt: Date;
}

/** The outcome of one prediction of one model for one task, in one run. */
export interface StoredEvaluation {
  readonly runId: string;
  readonly model: string;
  readonly instanceId: string;
  readonly repository: string;
  /** What was run: the prediction, the task's patches and tests, the environment and the limit. */
  readonly evaluationKey: string;
  /** Where the prediction was read (`file:line`), or `gold`. */
  readonly predictionSource: string;
  readonly outcome: string;
  readonly detail: string;
  /** The FAIL_TO_PASS tests that did not pass, as JSON text ([{nodeId, outcome}]). */
  readonly failingTests: string;
  /** The runner job, null when nothing ran (an empty prediction, a completion with no site). */
  readonly jobHash: string | null;
  readonly runIds: readonly string[];
  readonly seconds: number;
  readonly evaluatedAt: Date;
}

export interface EvaluationRunSummary {
  readonly runId: string;
  readonly release: string;
  readonly version: string;
  readonly models: number;
  readonly evaluations: number;
  readonly resolved: number;
  readonly startedAt: Date;
}

/** Evaluations of model predictions on releases (repocod evaluate), by run, model and task. */
export interface EvaluationStore {
  /** Records a run's release and scope; a run started again keeps its first start and takes the new scope. */
  saveEvaluationRun(run: EvaluationRun): Promise<void>;
  evaluationRun(runId: string): Promise<EvaluationRun | null>;
  /** Every run, newest first, with its counts. */
  evaluationRuns(): Promise<EvaluationRunSummary[]>;
  /** Adds or replaces the evaluation of one task by one model in one run. */
  saveEvaluation(row: StoredEvaluation): Promise<void>;
  /** A run's evaluations, by model then instance id. */
  evaluations(runId: string): Promise<StoredEvaluation[]>;
}

export function evaluationStore(engine: CatalogEngine): EvaluationStore {
  return {
    saveEvaluationRun(run: EvaluationRun): Promise<void> {
      return engine.exclusive(`recording evaluation run ${run.runId}`, async (connection) => {
        await connection.run(
          `INSERT INTO evaluation_runs (run_id, release, version, tasks, started_at) VALUES ($1, $2, $3, $4, $5)
           ON CONFLICT (run_id) DO UPDATE SET release = excluded.release, version = excluded.version, ` +
            `tasks = excluded.tasks`,
          [run.runId, run.release, run.version, run.tasks, timestampValueOf(run.startedAt)],
        );
      });
    },

    evaluationRun(runId: string): Promise<EvaluationRun | null> {
      return engine.exclusive(`reading evaluation run ${runId}`, async (connection) => {
        const rows = await readRows(connection, 'SELECT * FROM evaluation_runs WHERE run_id = $1', [runId]);
        const row = rows[0];
        if (row === undefined) return null;
        return {
          runId: text(row, 'run_id'),
          release: text(row, 'release'),
          version: text(row, 'version'),
          tasks: text(row, 'tasks'),
          startedAt: timestamp(row, 'started_at'),
        };
      });
    },

    evaluationRuns(): Promise<EvaluationRunSummary[]> {
      return engine.exclusive('reading the evaluation runs', async (connection) => {
        const rows = await readRows(
          connection,
          `SELECT r.run_id, r.release, r.version, r.started_at,
                  count(DISTINCT e.model) AS models, count(e.instance_id) AS evaluations,
                  count(*) FILTER (WHERE e.outcome = 'resolved') AS resolved
             FROM evaluation_runs r LEFT JOIN evaluations e USING (run_id)
            GROUP BY ALL ORDER BY r.started_at DESC, r.run_id`,
        );
        return rows.map((row) => ({
          runId: text(row, 'run_id'),
          release: text(row, 'release'),
          version: text(row, 'version'),
          models: Number(row.models),
          evaluations: Number(row.evaluations),
          resolved: Number(row.resolved),
          startedAt: timestamp(row, 'started_at'),
        }));
      });
    },

    saveEvaluation(row: StoredEvaluation): Promise<void> {
      return engine.exclusive(`storing the evaluation of ${row.instanceId}`, (connection) =>
        inTransaction(connection, async () => {
          await connection.run('DELETE FROM evaluations WHERE run_id = $1 AND model = $2 AND instance_id = $3', [
            row.runId,
            row.model,
            row.instanceId,
          ]);
          await connection.run(
            `INSERT INTO evaluations VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
            [
              row.runId,
              row.model,
              row.instanceId,
              row.repository,
              row.evaluationKey,
              row.predictionSource,
              row.outcome,
              row.detail,
              row.failingTests,
              row.jobHash,
              listValue([...row.runIds]),
              row.seconds,
              timestampValueOf(row.evaluatedAt),
            ],
            [...Array<typeof VARCHAR>(10).fill(VARCHAR), TEXT_LIST, DOUBLE, TIMESTAMP],
          );
        }),
      );
    },

    evaluations(runId: string): Promise<StoredEvaluation[]> {
      return engine.exclusive(`reading the evaluations of run ${runId}`, async (connection) => {
        const rows = await readRows(
          connection,
          'SELECT * FROM evaluations WHERE run_id = $1 ORDER BY model, instance_id',
          [runId],
        );
        return rows.map(evaluationFromRow);
      });
    },
  };
}

function evaluationFromRow(row: Row): StoredEvaluation {
  return {
    runId: text(row, 'run_id'),
    model: text(row, 'model'),
    instanceId: text(row, 'instance_id'),
    repository: text(row, 'repository'),
    evaluationKey: text(row, 'evaluation_key'),
    predictionSource: text(row, 'prediction_source'),
    outcome: text(row, 'outcome'),
    detail: text(row, 'detail'),
    failingTests: text(row, 'failing_tests'),
    jobHash: nullableText(row, 'job_hash'),
    runIds: textList(row, 'run_ids'),
    seconds: double(row, 'seconds'),
    evaluatedAt: timestamp(row, 'evaluated_at'),
  };
}
