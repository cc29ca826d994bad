import type { FlowEvent, FlowStage, FlowStatus } from '@repocod/pipeline';
import type { StageDefinition } from '@repocod/pipeline';
import { FLOW_STAGE_LIST } from '@repocod/pipeline';

/**
 * The flow as both front ends show it: one row per stage and repository (or one row for the stages
 * over all of them), folded from the flow's events by a pure reducer, so the TUI's stages screen and
 * the headless summary say the same thing.
 */

export type RowStatus = 'pending' | 'running' | 'done' | 'failed' | 'skipped';

export interface StageRow {
  readonly stage: FlowStage;
  readonly repository: string | null;
  readonly status: RowStatus;
  readonly done: number;
  readonly total: number;
  /** What the stage works on now. */
  readonly item: string;
  /** Milliseconds since the epoch; null until it starts. */
  readonly startedAt: number | null;
  readonly endedAt: number | null;
  /** Set when the total was last raised: an ETA is measured from there, not from the stage's start. */
  readonly phaseStartedAt: number | null;
  readonly phaseStartDone: number;
  readonly summary: string | null;
  readonly problems: readonly string[];
}

export interface FlowBoard {
  readonly rows: readonly StageRow[];
  readonly startedAt: number | null;
  readonly endedAt: number | null;
  readonly outcome: 'running' | 'ok' | 'failed' | 'stopped' | 'idle';
  /** Every problem as it happened, newest last: what the stages screen lists under the bars. */
  readonly problems: readonly {
    readonly stage: FlowStage;
    readonly repository: string | null;
    readonly message: string;
  }[];
  readonly release: Extract<FlowEvent, { kind: 'flow-done' }>['release'];
  /** What the run cost, once it is done (null before). */
  readonly cost: Extract<FlowEvent, { kind: 'flow-done' }>['cost'] | null;
}

/** The board before any event: every row pending (for the repositories chosen), in the order of the stages. */
export function emptyBoard(
  repositories: readonly string[],
  stages: readonly StageDefinition[] = FLOW_STAGE_LIST,
): FlowBoard {
  const rows = stages.flatMap(({ stage, rows }) =>
    rows === 'per-repository'
      ? repositories.map((repository) => pendingRow(stage, repository))
      : [pendingRow(stage, null)],
  );
  return { rows, startedAt: null, endedAt: null, outcome: 'idle', problems: [], release: null, cost: null };
}

function pendingRow(stage: FlowStage, repository: string | null): StageRow {
  return {
    stage,
    repository,
    status: 'pending',
    done: 0,
    total: 0,
    item: '',
    startedAt: null,
    endedAt: null,
    phaseStartedAt: null,
    phaseStartDone: 0,
    summary: null,
    problems: [],
  };
}

/** The board after one more event, `now` being when it arrived. */
export function foldFlowEvent(board: FlowBoard, event: FlowEvent, now: number): FlowBoard {
  switch (event.kind) {
    case 'flow-start': {
      // The stages of this run start afresh; the others (publish, while the TUI waits for the curator) keep what they
      // showed.
      const fresh = emptyBoard(event.repositories);
      const running = new Set(event.stages);
      const rows = fresh.rows.map((row) =>
        running.has(row.stage)
          ? row
          : (board.rows.find((old) => old.stage === row.stage && old.repository === row.repository) ?? row),
      );
      return { ...fresh, rows, startedAt: now, outcome: 'running' };
    }
    case 'stage-start':
      return withRow(board, event.stage, event.repository, (row) => ({
        ...row,
        status: 'running',
        startedAt: now,
        phaseStartedAt: now,
        phaseStartDone: 0,
        endedAt: null,
        done: 0,
        total: 0,
        item: '',
        summary: null,
        problems: [],
      }));
    case 'stage-progress':
      return withRow(board, event.stage, event.repository, (row) => {
        // A new phase (the mining baseline, then the mutations) restarts the count: so does the ETA.
        const newPhase = event.total !== row.total || event.done < row.done;
        return {
          ...row,
          done: event.done,
          total: event.total,
          item: event.item,
          phaseStartedAt: newPhase ? now : row.phaseStartedAt,
          phaseStartDone: newPhase ? event.done : row.phaseStartDone,
        };
      });
    case 'stage-problem':
      return {
        ...withRow(board, event.stage, event.repository, (row) => ({
          ...row,
          problems: [...row.problems, event.message],
        })),
        problems: [...board.problems, { stage: event.stage, repository: event.repository, message: event.message }],
      };
    case 'stage-done':
      return withRow(board, event.stage, event.repository, (row) => ({
        ...row,
        status: 'done',
        endedAt: now,
        summary: event.summary,
        done: Math.max(row.done, row.total),
      }));
    case 'stage-failed':
      return {
        ...withRow(board, event.stage, event.repository, (row) => ({
          ...row,
          status: 'failed',
          endedAt: now,
          summary: event.message,
        })),
        problems: [...board.problems, { stage: event.stage, repository: event.repository, message: event.message }],
      };
    case 'flow-done':
      // Only a failure leaves stages unrun: after a good run a pending row is one the run did not include.
      return {
        ...board,
        endedAt: now,
        outcome: event.ok ? 'ok' : 'failed',
        release: event.release,
        cost: event.cost,
        rows: event.ok
          ? board.rows
          : board.rows.map((row) => (row.status === 'pending' ? { ...row, status: 'skipped' } : row)),
      };
    case 'flow-stopped':
      return {
        ...board,
        endedAt: now,
        outcome: 'stopped',
        rows: board.rows.map((row) => (row.status === 'running' ? { ...row, status: 'pending', endedAt: now } : row)),
      };
  }
}

function withRow(
  board: FlowBoard,
  stage: FlowStage,
  repository: string | null,
  change: (row: StageRow) => StageRow,
): FlowBoard {
  const found = board.rows.some((row) => row.stage === stage && row.repository === repository);
  const rows = found ? board.rows : [...board.rows, pendingRow(stage, repository)];
  return {
    ...board,
    rows: rows.map((row) => (row.stage === stage && row.repository === repository ? change(row) : row)),
  };
}

/** Seconds the row has run (to its end, or to `now`). */
export function elapsedSeconds(row: StageRow, now: number): number {
  if (row.startedAt === null) return 0;
  return Math.max(0, ((row.endedAt ?? now) - row.startedAt) / 1000);
}

/**
 * Seconds left for a running row at the pace of its current phase, or null when there is no pace yet
 * (nothing done in this phase, or no total).
 */
export function etaSeconds(row: StageRow, now: number): number | null {
  if (row.status !== 'running' || row.total <= 0 || row.phaseStartedAt === null) return null;
  const doneInPhase = row.done - row.phaseStartDone;
  if (doneInPhase <= 0) return null;
  const pace = (now - row.phaseStartedAt) / 1000 / doneInPhase;
  return Math.max(0, (row.total - row.done) * pace);
}

/** `4.2 s`, `3 min 05 s`, `1 h 02 min`: short enough for a column. */
export function formatSeconds(seconds: number): string {
  if (seconds < 60) return `${seconds.toFixed(1)} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${String(Math.floor(seconds % 60)).padStart(2, '0')} s`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`;
}

/**
 * The board as the catalog and the state folder leave it, before anything runs: on a second start the
 * stages screen shows what the last session finished (and `r` carries on from there).
 */
export function boardFromStatus(
  status: FlowStatus,
  repositories: readonly string[],
  stages: readonly StageDefinition[] = FLOW_STAGE_LIST,
): FlowBoard {
  const board = emptyBoard(repositories, stages);
  const byName = new Map(status.repositories.map((repository) => [repository.name, repository]));
  const byStage = new Map(stages.map((definition) => [definition.stage, definition]));
  const rows = board.rows.map((row): StageRow => {
    const repository = row.repository === null ? undefined : byName.get(row.repository);
    const summary = byStage.get(row.stage)?.stored(status, repository) ?? null;
    return summary === null ? row : { ...row, status: 'done', summary: `in the catalog: ${summary}` };
  });
  return { ...board, rows };
}
