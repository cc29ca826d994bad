import { RepocodError } from '@repocod/core';
import type { ProgressReport } from '@repocod/pipeline';
import { DEFAULT_PROGRESS_INTERVAL_MS, ProgressTicker } from '@repocod/pipeline';
import { formatSeconds } from './flow-board.js';
import type { CommandIO } from './io.js';

/**
 * A long stage's periodic line for logs: `12/40 (30%) baseline: pytest jobs (…) · 4 min 10 s elapsed ·
 * ETA 9 min 43 s`, and, when nothing finished during the last interval, how long the count has not
 * moved, so that a slow stage is told apart from a hung one.
 */
export function progressLine(report: ProgressReport, intervalMs: number): string {
  const parts: string[] = [];
  const count =
    report.total > 0 ? `${report.done}/${report.total} (${Math.floor((report.done / report.total) * 100)}%)` : '';
  parts.push([count, report.item === '' ? 'working' : report.item].filter((part) => part !== '').join(' '));
  parts.push(`${formatSeconds(report.elapsedSeconds)} elapsed`);
  if (report.total > 0 && report.done < report.total)
    parts.push(report.etaSeconds === null ? 'ETA once one finishes' : `ETA ${formatSeconds(report.etaSeconds)}`);
  if (report.idleSeconds * 1000 >= intervalMs)
    parts.push(`still running, nothing finished for ${formatSeconds(report.idleSeconds)}`);
  return parts.join(' · ');
}

/**
 * The progress interval of a command: CommandIO's (tests make it short), else
 * $REPOCOD_PROGRESS_INTERVAL_MS (a whole number of milliseconds), else the default (30 s).
 */
export function progressInterval(io: CommandIO, env: NodeJS.ProcessEnv = process.env): number {
  if (io.progressIntervalMs !== undefined) return io.progressIntervalMs;
  const value = env.REPOCOD_PROGRESS_INTERVAL_MS;
  if (value === undefined || value === '') return DEFAULT_PROGRESS_INTERVAL_MS;
  if (!/^\d+$/.test(value) || Number(value) < 1) {
    throw new RepocodError(
      'usage',
      `REPOCOD_PROGRESS_INTERVAL_MS must be a whole number of milliseconds, at least 1 (got "${value}"); unset it ` +
        `for ` +
        `the default of 30 s`,
    );
  }
  return Number(value);
}

/**
 * A command's periodic progress on stderr: a ticker whose reports are printed as lines with a
 * prefix. Off a terminal it is the only progress a log gets; on a terminal it comes between the
 * redrawn counters.
 */
export function startProgressLines(io: CommandIO, prefix: string): ProgressTicker {
  const interval = progressInterval(io);
  return new ProgressTicker(
    (report) => io.err(`${io.interactive ? '\r\u001b[K' : ''}${prefix}${progressLine(report, interval)}\n`),
    interval,
  ).start();
}
