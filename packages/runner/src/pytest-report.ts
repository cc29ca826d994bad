import type { TestOutcome, TestResult } from './test-outcome.js';

/** One line of pytest-reportlog's output that we read. */
interface ReportLine {
  readonly $report_type?: string;
  readonly nodeid?: string;
  readonly when?: 'setup' | 'call' | 'teardown';
  readonly outcome?: 'passed' | 'failed' | 'skipped';
  readonly wasxfail?: unknown;
  readonly duration?: number;
  readonly longrepr?: unknown;
}

export interface ParsedReport {
  /** Every test pytest ran, by node id, in the order it reported them. */
  readonly results: ReadonlyMap<string, TestResult>;
  /** Node ids of files or classes that failed to collect, with pytest's message. */
  readonly collectionErrors: readonly { readonly nodeId: string; readonly message: string }[];
  /** Whether pytest reached the end of the session (SessionFinish written). */
  readonly finished: boolean;
  readonly exitStatus: number | null;
}

interface Accumulator {
  outcome: TestOutcome;
  duration: number;
  message: string | null;
  /** pytest reports every test's teardown, also after a failed setup: without it the run died during the test. */
  tornDown: boolean;
}

/** What a test in flight when its run was killed (timeout) or crashed is told apart by. */
export const UNFINISHED_TEST_MESSAGE =
  'the run ended during this test (killed at its limit, or crashed): it never finished';

/**
 * Reads a pytest-reportlog file (JSON lines). A test's outcome combines its phases the way pytest's
 * own summary does: a failing setup or teardown is an error, a failing call a failure, a skip with
 * `wasxfail` an xfail, a pass with `wasxfail` an xpass. A truncated last line (a killed run) is
 * ignored, so that what was written before it still counts.
 */
export function parseReportLog(text: string): ParsedReport {
  const results = new Map<string, Accumulator>();
  const collectionErrors: { nodeId: string; message: string }[] = [];
  let finished = false;
  let exitStatus: number | null = null;
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    let report: ReportLine & { exitstatus?: number };
    try {
      report = JSON.parse(line) as ReportLine & { exitstatus?: number };
    } catch {
      continue;
    }
    switch (report.$report_type) {
      case 'TestReport':
        recordPhase(results, report);
        break;
      case 'CollectReport':
        if (report.outcome === 'failed')
          collectionErrors.push({ nodeId: report.nodeid ?? '', message: longreprText(report.longrepr) });
        break;
      case 'SessionFinish':
        finished = true;
        exitStatus = typeof report.exitstatus === 'number' ? report.exitstatus : null;
        break;
    }
  }
  const frozen = new Map<string, TestResult>();
  for (const [nodeId, { tornDown, ...result }] of results) {
    // A test whose setup passed when the run was killed is no pass: it is the one that hung or crashed.
    const unfinished = !tornDown && result.outcome !== 'failed' && result.outcome !== 'error';
    frozen.set(
      nodeId,
      unfinished ? { nodeId, ...result, outcome: 'error', message: UNFINISHED_TEST_MESSAGE } : { nodeId, ...result },
    );
  }
  return { results: frozen, collectionErrors, finished, exitStatus };
}

function recordPhase(results: Map<string, Accumulator>, report: ReportLine): void {
  const nodeId = report.nodeid ?? '';
  const current = results.get(nodeId) ?? { outcome: 'passed', duration: 0, message: null, tornDown: false };
  if (report.when === 'teardown') current.tornDown = true;
  current.duration += report.duration ?? 0;
  const xfail = report.wasxfail !== undefined;
  if (report.when === 'call') {
    if (report.outcome === 'failed') current.outcome = 'failed';
    else if (report.outcome === 'skipped') current.outcome = xfail ? 'xfailed' : 'skipped';
    else current.outcome = xfail ? 'xpassed' : current.outcome;
  } else if (report.outcome === 'failed') {
    // A failing setup or teardown makes an error, whatever the call did.
    current.outcome = 'error';
  } else if (report.outcome === 'skipped' && report.when === 'setup') {
    current.outcome = xfail ? 'xfailed' : 'skipped';
  }
  if (report.outcome === 'failed' && current.message === null) current.message = longreprText(report.longrepr);
  results.set(nodeId, current);
}

function longreprText(longrepr: unknown): string {
  if (typeof longrepr === 'string') return longrepr;
  if (longrepr === null || longrepr === undefined) return '';
  if (typeof longrepr === 'object' && 'reprcrash' in longrepr) {
    const crash = (longrepr as { reprcrash?: { message?: string; path?: string; lineno?: number } }).reprcrash;
    if (crash?.message !== undefined) return `${crash.path ?? ''}:${crash.lineno ?? ''}: ${crash.message}`;
  }
  return JSON.stringify(longrepr).slice(0, 2000);
}

/**
 * The requested tests' results. A requested node id that pytest did not report is an `error` when
 * the file, folder or class it belongs to failed to collect (pytest's own summary counts that as an
 * error: an import of the module raised, say because a function it calls at import time is broken),
 * with the collection error's message; otherwise `missing`. Neither ever counts as a pass. With no
 * list (the whole suite), every reported test. One result per node id, in the order first asked.
 */
export function resultsFor(report: ParsedReport, requested: readonly string[] | 'all'): TestResult[] {
  if (requested === 'all') return [...report.results.values()];
  // A test asked for twice (a doctest named by two of a job's lists) has one result: the catalog keys
  // results by run and node id.
  return [...new Set(requested)].map((nodeId) => {
    const reported = report.results.get(nodeId);
    if (reported !== undefined) return reported;
    const collection = report.collectionErrors.find((error) => containsNode(error.nodeId, nodeId));
    if (collection === undefined) return { nodeId, outcome: 'missing', duration: 0, message: null };
    const message = `collection error of ${collection.nodeId || 'the session'}: ${collection.message}`;
    return { nodeId, outcome: 'error', duration: 0, message };
  });
}

/** Whether collector `parent` (a folder, a file, a class; '' the session) holds test `nodeId`. */
function containsNode(parent: string, nodeId: string): boolean {
  return parent === '' || nodeId.startsWith(`${parent}::`) || nodeId.startsWith(`${parent}/`);
}

/**
 * A conftest.py that fails to import stops pytest before it collects anything (exit code 4) and
 * leaves no collect report, only its console output: "ImportError while loading conftest
 * '<path>/tests/conftest.py'." (pytest says ImportError whatever the exception). Such a failure is a
 * collection error of the conftest's folder, whose every test errors; it is added to the report so
 * that resultsFor tells those tests apart from tests that are merely missing.
 */
export function withConftestLoadError(report: ParsedReport, output: string, projectDir: string): ParsedReport {
  if (report.collectionErrors.length > 0 || report.results.size > 0) return report;
  const match = /ImportError while loading conftest '([^']+)'/.exec(output);
  if (match === null) return report;
  const conftest = match[1] ?? '';
  const root = projectDir.endsWith('/') ? projectDir : `${projectDir}/`;
  const relative = conftest.startsWith(root) ? conftest.slice(root.length) : conftest;
  const folder = relative.includes('/') ? relative.slice(0, relative.lastIndexOf('/')) : '';
  const message = output.slice(match.index).split('\n').slice(0, 12).join('\n').trimEnd();
  return { ...report, collectionErrors: [{ nodeId: folder, message }] };
}
