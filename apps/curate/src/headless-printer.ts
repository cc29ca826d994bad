import type { FlowEvent } from '@repocod/pipeline';
import { costTable, DEFAULT_PROGRESS_INTERVAL_MS, stageTitle } from '@repocod/pipeline';
import type { FlowBoard } from './flow-board.js';
import { elapsedSeconds, formatSeconds } from './flow-board.js';
import { progressLine } from './progress-line.js';

/**
 * The headless mode's output: a line per step (a stage starting, finishing or failing, for each
 * repository, and each problem as it happens), and every progress interval while a stage runs a line
 * with where it stands (done/total, what runs, elapsed, ETA; how long nothing finished, when nothing
 * did), never a redrawn line, so a log or a CI job shows how far the flow got and that it is alive;
 * `--json` prints the flow's events themselves, one JSON object a line.
 */
export function headlessLine(event: FlowEvent, progressIntervalMs = DEFAULT_PROGRESS_INTERVAL_MS): string | null {
  const where = (repository: string | null): string => (repository === null ? '' : ` ${repository}`);
  switch (event.kind) {
    case 'flow-start':
      return `curate: ${event.repositories.join(', ')}`;
    case 'stage-start':
      return `[${event.stage}]${where(event.repository)}: ${stageTitle(event.stage)} …`;
    case 'stage-progress':
      if (event.periodic !== true) return null;
      return (
        `  [${event.stage}]${where(event.repository)}: ` +
        `${progressLine({ elapsedSeconds: 0, etaSeconds: null, idleSeconds: 0, ...event }, progressIntervalMs)}`
      );
    case 'stage-problem':
      return `  ! ${event.message}`;
    case 'stage-done':
      return `[${event.stage}]${where(event.repository)}: ${event.summary} (${formatSeconds(event.seconds)})`;
    case 'stage-failed':
      return (
        `[${event.stage}]${where(event.repository)}: FAILED after ${formatSeconds(event.seconds)}: ` +
        `${event.message}`
      );
    case 'flow-done':
    case 'flow-stopped':
      return null;
  }
}

/** The closing summary: each stage's outcome, then the release and what to do next. */
export function headlessSummary(board: FlowBoard, now: number): string {
  const lines = [
    '',
    `summary (${board.outcome === 'ok' ? 'done' : board.outcome}) in ` +
      `${formatSeconds(board.startedAt === null ? 0 : ((board.endedAt ?? now) - board.startedAt) / 1000)}`,
  ];
  const width = Math.max(...board.rows.map((row) => label(row.stage, row.repository).length));
  for (const row of board.rows) {
    const text = row.summary ?? (row.status === 'skipped' ? 'not run (an earlier stage failed)' : row.status);
    lines.push(
      `  ${statusMark(row.status)} ${label(row.stage, row.repository).padEnd(width)}  ` +
        `${firstLine(text)}${
          row.status === 'done' || row.status === 'failed' ? ` (${formatSeconds(elapsedSeconds(row, now))})` : ''
        }`,
    );
  }
  if (board.release !== null) {
    lines.push(
      `  release   ${board.release.folder}: version ${board.release.version}, ${board.release.rows} ` +
        `task(s)${board.release.written ? '' : ' (already there, left as it is)'}`,
    );
  }
  // The jobs this run ran, per phase: a warm run (all answered by the catalog) prints none.
  if (board.cost !== null && board.cost.phases.length > 0) lines.push('', ...costTable(board.cost));
  const problems = board.problems.length;
  if (problems > 0)
    lines.push(`  problems  ${problems} (listed above as they happened; repocod show ID tells about a task)`);
  if (board.outcome === 'failed')
    lines.push('  next      mend what failed, then run the same command again: it carries on from the catalog');
  return `${lines.join('\n')}\n`;
}

function label(stage: string, repository: string | null): string {
  return repository === null ? stage : `${stage} ${repository}`;
}

function statusMark(status: string): string {
  return status === 'done' ? 'ok  ' : status === 'failed' ? 'FAIL' : status === 'skipped' ? 'skip' : '..  ';
}

function firstLine(text: string): string {
  return text.split('\n')[0] ?? '';
}
