import type { BaselineStatus } from '@repocod/core';
import type { ReferenceRow } from './reference-row.js';
import type { FunctionKey, RowResolution } from './resolve-reference-row.js';

/** Our task of a resolved row, as the audit compares it. */
export interface AuditedTask {
  readonly instanceId: string;
  readonly failToPass: readonly string[];
  /** The level under each mode (repocod-v1, repocod-v4, deps) that labelled it. */
  readonly levels: Readonly<Record<string, string>>;
  readonly promptTokens: number;
  readonly solutionTokens: number;
  readonly complexity: number;
  readonly checksPassed: boolean;
  /** Its patches: the body restored (`gold_patches.code`) and the relevant tests removed (`pre_patches.test`). */
  readonly goldCode: string;
  readonly preTest: string;
}

/**
 * REPOCOD's per-task figures, measured as ours are (docs/definitions.md): #NL the prompt's cl100k tokens,
 * #GT the solution's, and radon's cyclomatic complexity.
 */
export interface TextMeasures {
  readonly promptTokens: number;
  readonly solutionTokens: number;
  readonly complexity: number;
}

/** Our latest validation of the task (of its current content). */
export interface AuditedVerdict {
  readonly status: string;
  /** The first check that did not pass, with its detail; null for a task that passed. */
  readonly reason: string | null;
}

export interface AuditInput {
  readonly row: ReferenceRow;
  /** The manifest's name of the row's repository (null: not in the manifest). */
  readonly repository: string | null;
  readonly resolution: RowResolution;
  readonly task: AuditedTask | null;
  readonly verdict: AuditedVerdict | null;
  /** Whether another reference (REPOCOD's flaky list) names the same function; null without one. */
  readonly listedFlaky: boolean | null;
  /** Why a test of the reference's FAIL_TO_PASS is not in ours, by test id (see missingTestReason). */
  readonly lackingReasons?: Readonly<Record<string, MissingTestReason>>;
  /** The task's latest `repocod evaluate --gold` outcome, within the limit; null when never evaluated. */
  readonly gold?: GoldEvaluation | null;
  /** The reference's own text (full_function) measured as ours is; null or absent where it gives none. */
  readonly theirs?: TextMeasures | null;
}

/** An evaluation of the gold patch: the whole FAIL_TO_PASS run at once within the limit, as a model's would be. */
export interface GoldEvaluation {
  /** evaluate's outcome: resolved, unresolved, timeout, error, patch-failed. */
  readonly outcome: string;
  readonly detail: string;
  readonly seconds: number;
}

/**
 * Why a test of the reference's FAIL_TO_PASS is not in ours, from our baseline at the base commit:
 * it was not collected here; it varied over our k runs; it failed for want of a network; it failed at
 * the base commit; or it passed there but our mutation (the body raising) did not make it fail.
 */
export const MISSING_TEST_REASONS = [
  'not-collected',
  'flaky',
  'network-bound',
  'fails-at-baseline',
  'not-failed-by-mutation',
] as const;
export type MissingTestReason = (typeof MISSING_TEST_REASONS)[number];

/** What our baseline says of one test: its status, and whether its failure is the network's. */
export interface BaselineVerdict {
  readonly status: BaselineStatus;
  readonly networkBound: boolean;
}

export function missingTestReason(baseline: BaselineVerdict | undefined): MissingTestReason {
  if (baseline === undefined) return 'not-collected';
  if (baseline.status === 'flaky') return 'flaky';
  if (baseline.status === 'not-passing') return baseline.networkBound ? 'network-bound' : 'fails-at-baseline';
  return 'not-failed-by-mutation';
}

/** FAIL_TO_PASS ours against the reference's, where it gives one (the seed form). */
export interface FailToPassComparison {
  readonly ours: number;
  readonly theirs: number | null;
  readonly same: boolean | null;
  /** Ours and not theirs, theirs and not ours (sorted). */
  readonly added: readonly string[];
  readonly lacking: readonly string[];
  /** The lacking tests counted by why they are not ours (when the baseline was read). */
  readonly lackingWhy: Readonly<Partial<Record<MissingTestReason, number>>>;
}

export interface AuditEntry {
  readonly index: number;
  /** Where the row was read (`file:line`, `file: row N`, `file: $["sphinx"]["6"]`). */
  readonly where: string;
  readonly repository: string;
  /** The row's name: function_name, else instance_id. */
  readonly name: string;
  readonly function: FunctionKey | null;
  /** `resolved`, else the unresolved reason. */
  readonly resolution: string;
  /** Why the row did not resolve, in the resolver's words; null for a resolved row. */
  readonly detail: string | null;
  /** The resolver's notes: a path matched by suffix, a choice among several of one name, another base commit. */
  readonly notes: readonly string[];
  /** The function fails our candidate filter (kept: the reference names it). */
  readonly outsideCandidates: boolean;
  readonly instanceId: string | null;
  /** Why a resolved row has no task: no relevant tests found, or not mined (with --reference). */
  readonly noTask: string | null;
  readonly failToPass: FailToPassComparison | null;
  /** The reference's text against ours (full_function, prompt, or the pre patch's removed lines). */
  readonly text: string;
  /** The reference's `gold_patches.code` against our task's, byte for byte; null where it gives none. */
  readonly goldPatch: Agreement | null;
  /** Its `pre_patches.test` (the tests removed from the starting state) against ours; null where it gives none. */
  readonly testRemovals: Agreement | null;
  /** #NL, #GT and complexity: ours, and the reference's text measured the same way (null where it has none). */
  readonly measures: { readonly ours: TextMeasures; readonly theirs: TextMeasures | null } | null;
  /**
   * `passed`, `failed: <check>`, `not judged: <check>` (a timeout, a crash), `not validated`, or null
   * without a task.
   */
  readonly verdict: string | null;
  /** `evaluate --gold`'s outcome with its seconds, `not evaluated`, or null without a task. */
  readonly gold: string | null;
  readonly listedFlaky: boolean | null;
  readonly task: AuditedTask | null;
}

export type Agreement = 'same' | 'differs';

export interface AuditSummary {
  readonly rows: number;
  readonly resolved: number;
  readonly withTask: number;
  readonly valid: number;
  readonly notValid: number;
  readonly notValidated: number;
  /** Tasks whose latest validation ended in an infrastructure error (a timeout, a crash): judged neither way. */
  readonly notJudged: number;
  /** Among tasks whose reference gives FAIL_TO_PASS: identical, and differing. */
  readonly sameFailToPass: number;
  readonly differentFailToPass: number;
  readonly unresolvedBy: Readonly<Record<string, number>>;
  readonly notValidBy: Readonly<Record<string, number>>;
  /** Rows the flaky list names, and of them valid here and not. */
  readonly listedFlaky: number;
  readonly listedFlakyValid: number;
  readonly listedFlakyNotValid: number;
  /** Tasks `evaluate --gold` ran, and those its gold patch resolved within the limit. */
  readonly goldEvaluated: number;
  readonly goldResolved: number;
  /** Tasks whose gold patch (and test removals) the reference gives: the same bytes as ours, and not. */
  readonly samePatches: number;
  readonly differentPatches: number;
  /** Tasks whose #NL, #GT or complexity measured on the reference's text is not ours. */
  readonly differentMeasures: number;
}

export interface ReferenceAudit {
  readonly reference: string;
  readonly entries: readonly AuditEntry[];
  readonly summary: AuditSummary;
  /** The line a reader can trust first. */
  readonly headline: string;
}

/**
 * The audit of a reference rebuilt from source: per row, whether it resolved (why not), our task and
 * why a resolved row has none, FAIL_TO_PASS ours against the reference's, the text agreement, our
 * verdict and whether the flaky list names it; then the totals and a headline.
 */
export function auditReference(reference: string, inputs: readonly AuditInput[]): ReferenceAudit {
  const entries = inputs.map(auditEntry);
  const count = (keep: (entry: AuditEntry) => boolean): number => entries.filter(keep).length;
  const tally = (values: readonly string[]): Record<string, number> => {
    const counts: Record<string, number> = {};
    for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
    return counts;
  };
  const withTask = entries.filter((entry) => entry.instanceId !== null);
  const failedReason = (entry: AuditEntry): string =>
    (entry.verdict ?? '').replace(/^failed: /, '').split(' ')[0] ?? '';
  const summary: AuditSummary = {
    rows: entries.length,
    resolved: count((entry) => entry.resolution === 'resolved'),
    withTask: withTask.length,
    valid: count((entry) => entry.verdict === 'passed'),
    notValid: count((entry) => entry.verdict?.startsWith('failed') === true),
    notValidated: count((entry) => entry.verdict === 'not validated'),
    notJudged: count((entry) => entry.verdict?.startsWith('not judged') === true),
    sameFailToPass: count((entry) => entry.failToPass?.same === true),
    differentFailToPass: count((entry) => entry.failToPass?.same === false),
    unresolvedBy: tally(entries.filter((entry) => entry.resolution !== 'resolved').map((entry) => entry.resolution)),
    notValidBy: tally(entries.filter((entry) => entry.verdict?.startsWith('failed') === true).map(failedReason)),
    listedFlaky: count((entry) => entry.listedFlaky === true),
    listedFlakyValid: count((entry) => entry.listedFlaky === true && entry.verdict === 'passed'),
    listedFlakyNotValid: count((entry) => entry.listedFlaky === true && entry.verdict?.startsWith('failed') === true),
    goldEvaluated: count((entry) => entry.gold !== null && entry.gold !== 'not evaluated'),
    goldResolved: count((entry) => entry.gold?.startsWith('resolved') === true),
    samePatches: count((entry) => entry.goldPatch === 'same' && entry.testRemovals !== 'differs'),
    differentPatches: count((entry) => entry.goldPatch === 'differs' || entry.testRemovals === 'differs'),
    differentMeasures: count((entry) => measuresDiffer(entry)),
  };
  return { reference, entries, summary, headline: headline(reference, summary) };
}

function auditEntry(input: AuditInput): AuditEntry {
  const { row, resolution, task, verdict } = input;
  const resolved = resolution.status === 'resolved';
  const theirs = row.failToPass;
  const failToPass =
    task === null
      ? null
      : {
          ours: task.failToPass.length,
          theirs: theirs === null ? null : theirs.length,
          same: theirs === null ? null : sameSet(task.failToPass, theirs),
          added: theirs === null ? [] : difference(task.failToPass, theirs),
          lacking: theirs === null ? [] : difference(theirs, task.failToPass),
          lackingWhy: theirs === null ? {} : lackingWhy(difference(theirs, task.failToPass), input.lackingReasons),
        };
  return {
    index: row.index,
    where: row.where,
    repository: input.repository ?? row.repository,
    name: row.functionName ?? row.instanceId ?? '?',
    function: resolution.status === 'resolved' ? resolution.function : null,
    resolution: resolved ? 'resolved' : resolution.reason,
    detail: resolution.status === 'resolved' ? null : resolution.message,
    notes: resolution.notes,
    outsideCandidates: resolution.status === 'resolved' && resolution.outsideCandidates,
    instanceId: task?.instanceId ?? null,
    noTask: resolved && task === null ? 'no task: not mined, or mining found no relevant tests' : null,
    failToPass,
    text: resolution.status === 'resolved' ? resolution.text : 'unresolved',
    goldPatch: task === null || row.goldCode === null ? null : agreement(row.goldCode, task.goldCode),
    testRemovals: task === null || row.preTest === null ? null : agreement(row.preTest, task.preTest),
    measures:
      task === null
        ? null
        : {
            ours: {
              promptTokens: task.promptTokens,
              solutionTokens: task.solutionTokens,
              complexity: task.complexity,
            },
            theirs: input.theirs ?? null,
          },
    verdict:
      task === null
        ? null
        : verdict === null
          ? 'not validated'
          : verdict.status === 'passed'
            ? 'passed'
            : // An infrastructure error (a timeout, a crash) judged nothing: the task is neither valid nor not.
              `${verdict.status === 'infra-error' ? 'not judged' : 'failed'}: ${verdict.reason ?? verdict.status}`,
    listedFlaky: input.listedFlaky,
    gold:
      task === null
        ? null
        : input.gold === undefined || input.gold === null
          ? 'not evaluated'
          : `${input.gold.outcome}${input.gold.outcome === 'resolved' ? '' : `: ${input.gold.detail}`} ` +
            `(${Math.round(input.gold.seconds)} s)`,
    task,
  };
}

function agreement(theirs: string, ours: string): Agreement {
  return theirs === ours ? 'same' : 'differs';
}

/** Whether the reference's text measures otherwise than ours (a row without a text of its own does not). */
export function measuresDiffer(entry: AuditEntry): boolean {
  const theirs = entry.measures?.theirs;
  if (theirs === null || theirs === undefined || entry.measures === null) return false;
  const { ours } = entry.measures;
  return (
    theirs.promptTokens !== ours.promptTokens ||
    theirs.solutionTokens !== ours.solutionTokens ||
    theirs.complexity !== ours.complexity
  );
}

/** `#NL / #GT / cyclo` ours, with the reference's where it measures otherwise: `120 / 80 / 5 (theirs 118 / 80 / 5)`. */
export function measuresCell(entry: AuditEntry): string {
  if (entry.measures === null) return '–';
  const figures = (measures: TextMeasures): string =>
    `${measures.promptTokens} / ${measures.solutionTokens} / ${measures.complexity}`;
  const { ours, theirs } = entry.measures;
  if (theirs === null) return figures(ours);
  return measuresDiffer(entry) ? `${figures(ours)} (theirs ${figures(theirs)})` : `${figures(ours)} (same)`;
}

/** `same` / `differs` of the gold patch and the test removals: `same / same`, `differs / –`. */
export function patchesCell(entry: AuditEntry): string {
  if (entry.goldPatch === null && entry.testRemovals === null) return '–';
  return `${entry.goldPatch ?? '–'} / ${entry.testRemovals ?? '–'}`;
}

/** Our level under each mode that labelled the task: `repocod-v1 file-level, deps repository-level`. */
export function levelsCell(entry: AuditEntry): string {
  if (entry.task === null) return '–';
  const levels = Object.entries(entry.task.levels).sort(([a], [b]) => (a < b ? -1 : 1));
  return levels.length === 0 ? '–' : levels.map(([mode, level]) => `${mode} ${level}`).join(', ');
}

function headline(reference: string, summary: AuditSummary): string {
  const reasons = (counts: Readonly<Record<string, number>>): string =>
    Object.entries(counts)
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .map(([reason, n]) => `${reason} ${n}`)
      .join(', ');
  const compared = summary.sameFailToPass + summary.differentFailToPass;
  const parts = [
    `${summary.resolved} of ${summary.rows} resolved${
      summary.rows > summary.resolved ? ` (${reasons(summary.unresolvedBy)})` : ''
    }`,
    `${summary.withTask} with a task`,
    compared > 0
      ? `${summary.sameFailToPass} with identical FAIL_TO_PASS, ${summary.differentFailToPass} differ`
      : 'FAIL_TO_PASS not in the reference',
    `${summary.valid} valid here`,
    `${summary.notValid} not valid here${summary.notValid > 0 ? ` (${reasons(summary.notValidBy)})` : ''}`,
    ...(summary.notJudged > 0 ? [`${summary.notJudged} not judged (an infrastructure error: timeout or crash)`] : []),
    ...(summary.notValidated > 0 ? [`${summary.notValidated} not validated`] : []),
    ...(summary.goldEvaluated > 0
      ? [`${summary.goldResolved} of ${summary.goldEvaluated} evaluated resolved by their gold patch within the limit`]
      : []),
  ];
  return `${reference} rebuilt from source: ${parts.join(', ')}`;
}

function lackingWhy(
  lacking: readonly string[],
  reasons: Readonly<Record<string, MissingTestReason>> | undefined,
): Partial<Record<MissingTestReason, number>> {
  if (reasons === undefined) return {};
  const counts: Partial<Record<MissingTestReason, number>> = {};
  for (const test of lacking) {
    const reason = reasons[test];
    if (reason !== undefined) counts[reason] = (counts[reason] ?? 0) + 1;
  }
  return counts;
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  const left = new Set(a);
  const right = new Set(b);
  return left.size === right.size && [...left].every((item) => right.has(item));
}

function difference(a: readonly string[], b: readonly string[]): string[] {
  const other = new Set(b);
  return [...new Set(a)].filter((item) => !other.has(item)).sort();
}

function why(counts: Readonly<Partial<Record<MissingTestReason, number>>>): string {
  const parts = Object.entries(counts).map(([reason, n]) => `${reason} ${n}`);
  return parts.length === 0 ? '' : `: ${parts.join(', ')}`;
}

/** The audit as Markdown: the headline, the totals, then a row per task. */
export function auditMarkdown(audit: ReferenceAudit): string {
  const { summary } = audit;
  const lines = [
    `# Audit of ${audit.reference}`,
    '',
    `**${audit.headline}.**`,
    '',
    ...(summary.listedFlaky > 0
      ? [
          `REPOCOD's flaky list names ${summary.listedFlaky} of them: ${summary.listedFlakyValid} valid here, ` +
            `${summary.listedFlakyNotValid} not valid here.`,
          '',
        ]
      : []),
    ...(summary.samePatches + summary.differentPatches > 0
      ? [
          `Gold patch and test removals: ${summary.samePatches} the same bytes as the reference's, ` +
            `${summary.differentPatches} differ.`,
          '',
        ]
      : []),
    `#NL / #GT / cyclo are the prompt's and the solution's cl100k tokens and radon's cyclomatic complexity; ` +
      `${summary.differentMeasures} task(s) measure otherwise on the reference's own text.`,
    '',
    '| # | repository | name | resolved to | task | FAIL_TO_PASS ours / theirs | text | gold patch / test removals ' +
      '| #NL / #GT / cyclo | levels | verdict | gold | flaky list |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...audit.entries.map((entry) => {
      const fn = entry.function === null ? entry.resolution : `${entry.function.file}::${entry.function.qualname}`;
      const tests =
        entry.failToPass === null
          ? '–'
          : `${entry.failToPass.ours} / ${entry.failToPass.theirs ?? '–'}${
              entry.failToPass.same === false
                ? ` (ours adds ${entry.failToPass.added.length}, lacks ${entry.failToPass.lacking.length}${why(
                    entry.failToPass.lackingWhy,
                  )})`
                : ''
            }`;
      const flaky = entry.listedFlaky === null ? '–' : entry.listedFlaky ? 'listed' : '';
      const task = entry.instanceId === null ? (entry.noTask ?? '–') : 'yes';
      return (
        `| ${entry.index} | ${entry.repository} | \`${entry.name}\` | ${fn} | ${task} | ${tests} | ${entry.text} ` +
        `| ${patchesCell(entry)} | ${measuresCell(entry)} | ${levelsCell(entry)} | ${entry.verdict ?? '–'} ` +
        `| ${entry.gold ?? '–'} | ${flaky} |`
      );
    }),
    '',
  ];
  return lines.join('\n');
}

/** The audit as one self-contained HTML page (inline styles, no script): the headline, then a row per task. */
export function auditHtml(audit: ReferenceAudit): string {
  const cells = (entry: AuditEntry): string[] => [
    String(entry.index),
    entry.repository,
    entry.name,
    entry.function === null ? entry.resolution : `${entry.function.file}::${entry.function.qualname}`,
    entry.instanceId ?? entry.noTask ?? '–',
    entry.failToPass === null
      ? '–'
      : `${entry.failToPass.ours} / ${entry.failToPass.theirs ?? '–'}${
          entry.failToPass.same === false
            ? ` (adds ${entry.failToPass.added.length}, lacks ${entry.failToPass.lacking.length}${why(
                entry.failToPass.lackingWhy,
              )})`
            : ''
        }`,
    entry.text,
    patchesCell(entry),
    measuresCell(entry),
    levelsCell(entry),
    entry.verdict ?? '–',
    entry.gold ?? '–',
    entry.listedFlaky === null ? '–' : entry.listedFlaky ? 'listed' : '',
  ];
  const bad = (entry: AuditEntry): boolean =>
    entry.resolution !== 'resolved' ||
    (entry.verdict !== null && entry.verdict !== 'passed') ||
    entry.instanceId === null;
  const head = ['#', 'repository', 'name', 'resolved to', 'task', 'FAIL_TO_PASS ours / theirs', 'text']
    .concat(['gold patch / test removals', '#NL / #GT / cyclo', 'levels', 'verdict', 'gold', 'flaky list'])
    .map((name) => `<th>${escapeHtml(name)}</th>`)
    .join('');
  const rows = audit.entries
    .map(
      (entry) =>
        `<tr${bad(entry) ? ' style="background:#fdecea"' : ''}>${cells(entry)
          .map((cell) => `<td>${escapeHtml(cell)}</td>`)
          .join('')}</tr>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Audit of ${escapeHtml(audit.reference)}</title>
<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse;font-size:13px}
td,th{border:1px solid #ccc;padding:3px 6px;text-align:left;vertical-align:top}th{background:#f3f3f3}</style>
</head><body>
<h1>Audit of ${escapeHtml(audit.reference)}</h1>
<p><strong>${escapeHtml(audit.headline)}.</strong></p>
<table><thead><tr>${head}</tr></thead><tbody>
${rows}
</tbody></table>
</body></html>
`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}
