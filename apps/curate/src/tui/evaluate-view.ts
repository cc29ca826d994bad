import type { EvaluateEvent } from '@repocod/pipeline';
import type { Colour, StyledLine } from './styled-line.js';
import { line } from './styled-line.js';
import { cutColumns } from './truncate.js';

/** One evaluated prediction as the evaluate screen lists it. */
export interface EvaluatedRow {
  readonly repository: string;
  readonly model: string;
  readonly instanceId: string;
  readonly outcome: string;
  readonly detail: string;
}

/**
 * What the evaluate screen shows of a run, folded from the evaluation's events: pure, so each event's
 * effect is tested without a terminal. `done`/`total` count this run's predictions (those the
 * catalog answered are counted in at the start).
 */
export interface EvaluationView {
  readonly state: 'idle' | 'running' | 'done' | 'failed';
  /** What is evaluated: the predictions file, or `gold`. */
  readonly predictions: string | null;
  readonly runId: string | null;
  readonly total: number;
  readonly done: number;
  readonly resolved: number;
  readonly fromCatalog: number;
  readonly startedAt: number | null;
  readonly rows: readonly EvaluatedRow[];
  /** Predictions that could not be read or matched, one line each. */
  readonly problems: readonly string[];
  /** The last word: the report's headline, or why it failed. */
  readonly message: string | null;
}

export const IDLE_EVALUATION: EvaluationView = {
  state: 'idle',
  predictions: null,
  runId: null,
  total: 0,
  done: 0,
  resolved: 0,
  fromCatalog: 0,
  startedAt: null,
  rows: [],
  problems: [],
  message: null,
};

export function startedEvaluation(predictions: string, at: number): EvaluationView {
  return { ...IDLE_EVALUATION, state: 'running', predictions, startedAt: at };
}

export function foldEvaluateEvent(view: EvaluationView, event: EvaluateEvent): EvaluationView {
  switch (event.kind) {
    case 'evaluate-start':
      return {
        ...view,
        runId: event.runId,
        total: event.predictions,
        problems: event.problems.map(
          (problem) => `${problem.source}${problem.field === null ? '' : ` (${problem.field})`}: ${problem.message}`,
        ),
      };
    case 'evaluate-repository':
      return { ...view, fromCatalog: view.fromCatalog + event.fromCatalog, done: view.done + event.fromCatalog };
    case 'evaluate-task':
      return {
        ...view,
        done: view.done + 1,
        resolved: view.resolved + (event.outcome === 'resolved' ? 1 : 0),
        rows: [
          ...view.rows,
          {
            repository: event.repository,
            model: event.model,
            instanceId: event.instanceId,
            outcome: event.outcome,
            detail: event.detail,
          },
        ],
      };
  }
}

/** Seconds left at the pace so far; null before the first prediction of this run is in. */
export function evaluationEta(view: EvaluationView, now: number): number | null {
  const ran = view.done - view.fromCatalog;
  if (view.startedAt === null || ran <= 0 || view.done >= view.total) return null;
  return (((now - view.startedAt) / 1000) * (view.total - view.done)) / ran;
}

const OUTCOME_COLOURS: Readonly<Record<string, Colour>> = {
  resolved: 'green',
  unresolved: 'red',
  empty: 'gray',
  'patch-failed': 'yellow',
  timeout: 'yellow',
  error: 'magenta',
};

/** A result's row: outcome, instance, model, detail, cut to the width. */
export function evaluatedRowLine(row: EvaluatedRow, width: number, selected: boolean): StyledLine {
  const outcome = row.outcome.padEnd(13);
  const rest = cutColumns(` ${row.instanceId}  ${row.model}  ${row.detail}`, Math.max(0, width - outcome.length));
  return [
    { text: outcome, color: OUTCOME_COLOURS[row.outcome] ?? 'white', inverse: selected },
    { text: rest, inverse: selected },
  ];
}

export function problemLines(view: EvaluationView, width: number): StyledLine[] {
  return view.problems.map((problem) => line(cutColumns(`! ${problem}`, width), { color: 'yellow' }));
}
