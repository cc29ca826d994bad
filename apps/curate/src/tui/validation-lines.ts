import type { CheckResult, ValidationEntry, ValidationOverview } from '@repocod/pipeline';
import { checkLines } from './check-lines.js';
import { STATUS_COLOURS, STATUS_MARKS } from './status-colours.js';
import { line, type Span, type StyledLine, textLines } from './styled-line.js';
import { displayWidth, fit, plain } from './truncate.js';

/**
 * What the validation screen shows, as lines: the selection's counts, a row per task with the check
 * that failed, and one task's failure (its checks, then a log).
 */

/** The selection and its counts, on two rows so that they fit 80 columns. */
export function summaryLines(overview: ValidationOverview): StyledLine[] {
  if (overview.selectionId === null)
    return [line('no selection yet: the select stage picks the tasks that validation judges', { dim: true }), line('')];
  const count = (status: ValidationEntry['status']): number =>
    overview.entries.filter((entry) => entry.status === status).length;
  const flaky = overview.entries.reduce((sum, entry) => sum + entry.flakyTests.length, 0);
  const dropped = overview.entries.reduce((sum, entry) => sum + entry.droppedTests.length, 0);
  const dot: Span = { text: ' · ', dim: true };
  return [
    [{ text: `selection ${overview.selectionId}`, bold: true }, dot, { text: `${overview.entries.length} tasks` }],
    [
      { text: `${count('passed')} passed`, color: STATUS_COLOURS.passed },
      dot,
      { text: `${count('failed')} failed`, color: STATUS_COLOURS.failed },
      dot,
      { text: `${count('infra-error')} infra-error`, color: STATUS_COLOURS['infra-error'] },
      dot,
      { text: `${count('not-validated')} not validated`, color: STATUS_COLOURS['not-validated'] },
      dot,
      { text: `${flaky} flaky test(s)`, ...(flaky > 0 ? { color: 'yellow' as const } : {}) },
      ...(dropped > 0 ? [dot, { text: `${dropped} dropped test(s)` }] : []),
    ],
  ];
}

/** The check that decided a task's verdict: the first that did not pass (null when all passed). */
export function decidingCheck(entry: ValidationEntry): CheckResult | null {
  return entry.checks.find((check) => check.status !== 'passed') ?? null;
}

/** The width of the status column: the longest status present (an infra-error is rare). */
export function statusColumnWidth(entries: readonly ValidationEntry[]): number {
  return Math.max(6, ...entries.map((entry) => entry.status.length));
}

/** The width of the id column: the longest id, but never more than about half the row. */
export function idColumnWidth(entries: readonly ValidationEntry[], width: number): number {
  const longest = Math.max(2, ...entries.map((entry) => displayWidth(entry.instanceId)));
  return Math.min(longest, Math.max(20, Math.floor(width * 0.45)));
}

/** A task's row: its verdict, its id (cut at its start), and the deciding check's one-line detail. */
export function entryLine(
  entry: ValidationEntry,
  columns: { readonly status: number; readonly id: number },
  cursor: boolean,
): StyledLine {
  const colour = STATUS_COLOURS[entry.status];
  const check = decidingCheck(entry);
  const detail: Span =
    entry.status === 'not-validated'
      ? { text: 'not validated yet', dim: true }
      : check === null
        ? { text: plain(entry.checks.at(-1)?.detail ?? 'every check passed'), dim: true }
        : { text: `${check.check}: ${plain(check.detail)}` };
  const spans: Span[] = [
    { text: cursor ? '› ' : '  ' },
    { text: `${STATUS_MARKS[entry.status]} ${fit(entry.status, columns.status)} `, color: colour },
    { text: `${fit(entry.instanceId, columns.id, 'left', 'start')} ` },
    detail,
  ];
  return cursor ? spans.map((span) => ({ ...span, inverse: true })) : spans;
}

export type LogState =
  | { readonly kind: 'tail' }
  | { readonly kind: 'loading'; readonly runId: string }
  | { readonly kind: 'whole'; readonly runId: string; readonly text: string }
  | { readonly kind: 'missing'; readonly runId: string }
  | { readonly kind: 'error'; readonly runId: string; readonly message: string };

/** The check whose log the failure view shows: the deciding one, else (all passed) the last run. */
export function logCheck(entry: ValidationEntry): CheckResult | null {
  // A passed task's gold check may have no run of its own (stored before validation 4, mining's baseline answering
  // it, and no fit run): the last check that ran.
  const ran = entry.checks.filter((check) => check.runIds.length > 0);
  return decidingCheck(entry) ?? ran.at(-1) ?? entry.checks.at(-1) ?? null;
}

export interface FailurePage {
  readonly lines: readonly StyledLine[];
  /** The line where the log starts (its title). */
  readonly logStart: number;
}

/** A task's failure: its checks with their tests, then the log of the deciding check. */
export function failureLines(entry: ValidationEntry, log: LogState): FailurePage {
  const lines: StyledLine[] = [];
  if (entry.validation === null) {
    lines.push(line('not validated yet: no checks and no log', { dim: true }));
    return { lines, logStart: 0 };
  }
  lines.push(...checkLines(entry.checks, entry));
  lines.push(line(''));
  const logStart = lines.length;
  lines.push(...logLines(logCheck(entry), log));
  return { lines, logStart };
}

/** A run id is a job hash and a run number: a hash's start is enough to tell runs apart on screen. */
export function shortRunId(runId: string): string {
  const [hash = runId, number] = runId.split(':');
  return number === undefined ? hash.slice(0, 12) : `${hash.slice(0, 12)}:${number}`;
}

function logLines(check: CheckResult | null, log: LogState): StyledLine[] {
  if (check === null) return [line('no check ran: no log', { dim: true })];
  const run = shortRunId(check.runIds[0] ?? 'none');
  const title = (text: string): StyledLine => line(`── ${text} `, { bold: true, color: 'yellow' });
  switch (log.kind) {
    case 'tail':
      if (check.log === null)
        return [
          title(`log of ${check.check} · f: whole log · run ${run}`),
          line(`the check ${check.status}: only the log of a check that did not pass is kept with it`, { dim: true }),
        ];
      return [title(`end of the log of ${check.check} · f: whole log · run ${run}`), ...textLines(check.log)];
    case 'loading':
      return [
        title(`log of ${check.check} · run ${shortRunId(log.runId)}`),
        line('loading the whole log…', { dim: true }),
      ];
    case 'whole': {
      const body = textLines(log.text);
      return [title(`whole log of ${check.check} · ${body.length} lines · run ${shortRunId(log.runId)}`), ...body];
    }
    case 'missing':
      return [
        title(`log of ${check.check} · run ${shortRunId(log.runId)}`),
        line(`the catalog has no run ${log.runId}`, { color: 'red' }),
        ...textLines(check.log ?? ''),
      ];
    case 'error':
      return [
        title(`log of ${check.check} · run ${shortRunId(log.runId)}`),
        line(`could not load the log: ${plain(log.message)}`, { color: 'red' }),
        ...textLines(check.log ?? ''),
      ];
  }
}
