import type { EvaluationOutcome } from './evaluation-outcome.js';
import type { InsertionMode } from './insertion-mode.js';
import type { SinceScope } from './since-scope.js';

/** What the report needs of a task of the release (its metadata may be unknown for a foreign release). */
export interface ReportTask {
  readonly instanceId: string;
  readonly repository: string;
  /** Context level; null when the release does not say. */
  readonly level: string | null;
  readonly complexity: number | null;
  readonly solutionTokens: number | null;
}

export interface ReportResult {
  readonly instanceId: string;
  readonly outcome: EvaluationOutcome;
}

export interface PassRate {
  readonly group: string;
  readonly tasks: number;
  readonly resolved: number;
  readonly passAt1: number;
}

/**
 * A model's report over a release: SWE-bench's summary keys (schema 2 of its harness: the counts and
 * the id lists, so tools that read SWE-bench reports read this one), our outcomes apart
 * (`patch_failed_ids`, `timeout_ids`, which SWE-bench counts among `error_ids`), and pass@1 overall and
 * per repository, context level, complexity and solution length (REPOCOD's Figure 4 bins). pass@1 is
 * resolved over every task in scope: a task without a prediction counts as not resolved.
 */
export interface EvaluationReport {
  readonly schema_version: 2;
  readonly run_id: string;
  readonly model: string;
  /** Present only for a run `--since DATE`: the date, and the release's tasks it left out (not in total_instances). */
  readonly since?: SinceReport;
  /** Present only for a run `--insert repocod`: completions were inserted as REPOCOD's evaluator does. */
  readonly insertion?: 'repocod';
  readonly total_instances: number;
  readonly submitted_instances: number;
  readonly completed_instances: number;
  readonly resolved_instances: number;
  readonly unresolved_instances: number;
  readonly empty_patch_instances: number;
  readonly error_instances: number;
  readonly completed_ids: readonly string[];
  readonly incomplete_ids: readonly string[];
  readonly empty_patch_ids: readonly string[];
  readonly submitted_ids: readonly string[];
  readonly resolved_ids: readonly string[];
  readonly unresolved_ids: readonly string[];
  readonly error_ids: readonly string[];
  readonly patch_failed_ids: readonly string[];
  readonly timeout_ids: readonly string[];
  readonly pass_at_1: number;
  readonly by_repository: readonly PassRate[];
  readonly by_level: readonly PassRate[];
  readonly by_complexity: readonly PassRate[];
  readonly by_solution_length: readonly PassRate[];
}

/** What a run `--since DATE` scored and left out: tasks whose body changed before the date, or has no date. */
export interface SinceReport {
  readonly date: string;
  readonly scored_instances: number;
  readonly left_out_instances: number;
  readonly changed_before_ids: readonly string[];
  readonly without_body_date_ids: readonly string[];
}

/** REPOCOD's Figure 4 bins of cyclomatic complexity. */
export const COMPLEXITY_BINS: readonly { readonly label: string; readonly upTo: number }[] = [
  { label: 'M ≤ 2', upTo: 2 },
  { label: '3–5', upTo: 5 },
  { label: '6–10', upTo: 10 },
  { label: '≥ 11', upTo: Number.POSITIVE_INFINITY },
];

/** REPOCOD's Figure 4 bins of canonical-solution length (cl100k tokens; the full benchmark's quintiles). */
export const SOLUTION_LENGTH_BINS: readonly { readonly label: string; readonly below: number }[] = [
  { label: '[0, 66)', below: 66 },
  { label: '[66, 128)', below: 128 },
  { label: '[128, 232)', below: 232 },
  { label: '[232, 435)', below: 435 },
  { label: '≥ 435', below: Number.POSITIVE_INFINITY },
];

const UNKNOWN = 'unknown';
const LEVEL_ORDER = ['self-contained', 'file-level', 'repo-level', UNKNOWN];

export function evaluationReport(
  runId: string,
  model: string,
  tasks: readonly ReportTask[],
  results: readonly ReportResult[],
  since: SinceScope | null = null,
  insertion: InsertionMode = 'lenient',
): EvaluationReport {
  const inScope = new Set(tasks.map((task) => task.instanceId));
  const byId = new Map(results.filter((result) => inScope.has(result.instanceId)).map((r) => [r.instanceId, r]));
  const ids = (...outcomes: EvaluationOutcome[]): string[] =>
    [...byId.values()]
      .filter((result) => outcomes.includes(result.outcome))
      .map((result) => result.instanceId)
      .sort();
  const resolved = new Set(ids('resolved'));
  const rates = (groupOf: (task: ReportTask) => string, order: readonly string[]): PassRate[] =>
    passRates(tasks, resolved, groupOf, order);
  const completed = ids('resolved', 'unresolved');
  const errors = ids('patch-failed', 'timeout', 'error');
  return {
    schema_version: 2,
    run_id: runId,
    model,
    ...(since === null ? {} : { since: sinceReport(since) }),
    ...(insertion === 'repocod' ? { insertion } : {}),
    total_instances: tasks.length,
    submitted_instances: byId.size,
    completed_instances: completed.length,
    resolved_instances: resolved.size,
    unresolved_instances: ids('unresolved').length,
    empty_patch_instances: ids('empty').length,
    error_instances: errors.length,
    completed_ids: completed,
    incomplete_ids: [...inScope].filter((id) => !byId.has(id)).sort(),
    empty_patch_ids: ids('empty'),
    submitted_ids: [...byId.keys()].sort(),
    resolved_ids: [...resolved],
    unresolved_ids: ids('unresolved'),
    error_ids: errors,
    patch_failed_ids: ids('patch-failed'),
    timeout_ids: ids('timeout'),
    pass_at_1: ratio(resolved.size, tasks.length),
    by_repository: rates((task) => task.repository, []),
    by_level: rates((task) => task.level ?? UNKNOWN, LEVEL_ORDER),
    by_complexity: rates(
      (task) =>
        task.complexity === null ? UNKNOWN : binOf(COMPLEXITY_BINS, (bin) => (task.complexity as number) <= bin.upTo),
      [...COMPLEXITY_BINS.map((bin) => bin.label), UNKNOWN],
    ),
    by_solution_length: rates(
      (task) =>
        task.solutionTokens === null
          ? UNKNOWN
          : binOf(SOLUTION_LENGTH_BINS, (bin) => (task.solutionTokens as number) < bin.below),
      [...SOLUTION_LENGTH_BINS.map((bin) => bin.label), UNKNOWN],
    ),
  };
}

function sinceReport(scope: SinceScope): SinceReport {
  return {
    date: scope.since,
    scored_instances: scope.scored,
    left_out_instances: scope.changedBefore.length + scope.withoutBodyDate.length,
    changed_before_ids: [...scope.changedBefore].sort(),
    without_body_date_ids: [...scope.withoutBodyDate].sort(),
  };
}

function binOf<T extends { readonly label: string }>(bins: readonly T[], fits: (bin: T) => boolean): string {
  return bins.find(fits)?.label ?? UNKNOWN;
}

/** Groups in `order` first (those with tasks), then the others by name. */
function passRates(
  tasks: readonly ReportTask[],
  resolved: ReadonlySet<string>,
  groupOf: (task: ReportTask) => string,
  order: readonly string[],
): PassRate[] {
  const groups = new Map<string, { tasks: number; resolved: number }>();
  for (const task of tasks) {
    const group = groupOf(task);
    const counts = groups.get(group) ?? { tasks: 0, resolved: 0 };
    counts.tasks++;
    if (resolved.has(task.instanceId)) counts.resolved++;
    groups.set(group, counts);
  }
  const rank = (group: string): number => {
    const index = order.indexOf(group);
    return index === -1 ? order.length : index;
  };
  return [...groups.entries()]
    .sort(([a], [b]) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0))
    .map(([group, counts]) => ({ group, ...counts, passAt1: ratio(counts.resolved, counts.tasks) }));
}

function ratio(part: number, whole: number): number {
  return whole === 0 ? 0 : Math.round((part / whole) * 10000) / 10000;
}
