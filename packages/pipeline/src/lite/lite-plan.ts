import type { MiningStatus } from '@repocod/core';
import { RepocodError } from '@repocod/core';
import type { SelectionLevel } from '@repocod/tasks';
import { SELECTION_LEVELS } from '@repocod/tasks';

/**
 * Lite-first mining's planner, pure: from every candidate's level and score (known before any test
 * runs) and the mining outcomes so far, which candidates to mine next and whether to stop. It mines
 * each level in the selection's order (score, then the tie-break) and stops once the level holds its
 * quota plus a margin of tasks AND every candidate ranked above that cut, or tied with its score, is
 * mined: then no candidate left unmined can rank among the level's first quota tasks, so the
 * selection is exactly the one full mining would give (provided quota of those tasks pass their checks,
 * which the margin is for and the flow checks after the tasks stage).
 */

export interface LiteCandidate {
  readonly repository: string;
  readonly functionId: string;
  readonly level: SelectionLevel;
  /** The selection spec's score of the task it would become; null (SQL NULL) ranks last. */
  readonly score: number | null;
  /** Orders equal scores as the selection does (ascending): solution tokens descending, then instance id. */
  readonly tieBreak: string;
}

/** What mining (and, once known, the tasks stage) said of a candidate; absent from the map: not mined yet. */
export type LiteOutcome = MiningStatus | 'failed-checks';

/** Extra tasks per level beyond its quota: a percentage of the quota (rounded up) or a number of tasks. */
export type LiteMargin = { readonly percent: number } | { readonly tasks: number };

export const DEFAULT_LITE_MARGIN: LiteMargin = { percent: 20 };

export interface LitePlanInput {
  readonly candidates: readonly LiteCandidate[];
  /** By liteKey(repository, functionId). */
  readonly outcomes: ReadonlyMap<string, LiteOutcome>;
  readonly quotas: Readonly<Record<SelectionLevel, number>>;
  readonly margin: LiteMargin;
}

export type LiteLevelState =
  /** Enough tasks, and everything ranked above the cut or tied with it mined. */
  | 'enough'
  /** Every candidate of the level mined, and still fewer tasks than the target. */
  | 'exhausted'
  | 'mining';

export interface LiteLevelPlan {
  readonly level: SelectionLevel;
  readonly quota: number;
  /** Quota plus margin. */
  readonly target: number;
  readonly candidates: number;
  readonly mined: number;
  /** Mined candidates that are tasks (with relevant tests, not known to fail their checks). */
  readonly found: number;
  /** Score of the target-th task in rank order; null while fewer are found. */
  readonly cutoff: number | null;
  readonly state: LiteLevelState;
  /** Candidates of this level planned for the next round. */
  readonly next: number;
}

export interface LitePlan {
  /** What to mine next, by level then rank; empty when done. */
  readonly next: readonly LiteCandidate[];
  readonly done: boolean;
  readonly levels: readonly LiteLevelPlan[];
}

export function liteKey(repository: string, functionId: string): string {
  return `${repository}\u0000${functionId}`;
}

export function marginTasks(margin: LiteMargin, quota: number): number {
  return 'tasks' in margin ? margin.tasks : Math.ceil((quota * margin.percent) / 100);
}

/** `20%` (of each quota, rounded up) or `5` (tasks per level). */
export function parseLiteMargin(text: string): LiteMargin {
  const percent = /^(\d+(?:\.\d+)?)%$/.exec(text.trim());
  if (percent !== null) return { percent: Number(percent[1]) };
  if (/^\d+$/.test(text.trim())) return { tasks: Number(text.trim()) };
  throw new RepocodError(
    'usage',
    `--margin must be a percentage of each quota such as 20% or a number of tasks such as 5 (got ${text})`,
  );
}

export function planLiteMining(input: LitePlanInput): LitePlan {
  const levels = SELECTION_LEVELS.map((level) => planLevel(level, input));
  return {
    next: levels.flatMap((plan) => plan.next),
    done: levels.every((plan) => plan.state !== 'mining'),
    levels: levels.map(({ next, ...plan }) => ({ ...plan, next: next.length })),
  };
}

/** Higher scores first, then the tie-break, then repository and function id so that the order is total. */
export function compareLiteCandidates(a: LiteCandidate, b: LiteCandidate): number {
  const scoreA = a.score ?? Number.NEGATIVE_INFINITY;
  const scoreB = b.score ?? Number.NEGATIVE_INFINITY;
  if (scoreA !== scoreB) return scoreB - scoreA;
  return (
    compareText(a.tieBreak, b.tieBreak) ||
    compareText(a.repository, b.repository) ||
    compareText(a.functionId, b.functionId)
  );
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function planLevel(
  level: SelectionLevel,
  input: LitePlanInput,
): Omit<LiteLevelPlan, 'next'> & { next: LiteCandidate[] } {
  const ranked = input.candidates.filter((candidate) => candidate.level === level).sort(compareLiteCandidates);
  const quota = input.quotas[level];
  const target = quota === 0 ? 0 : quota + marginTasks(input.margin, quota);
  const outcomeOf = (candidate: LiteCandidate): LiteOutcome | undefined =>
    input.outcomes.get(liteKey(candidate.repository, candidate.functionId));
  const mined = ranked.filter((candidate) => outcomeOf(candidate) !== undefined).length;
  const found = ranked.filter((candidate) => outcomeOf(candidate) === 'tests').length;
  const base = { level, quota, target, candidates: ranked.length, mined, found };
  if (target === 0) return { ...base, cutoff: null, state: 'enough', next: [] };

  // The target-th task in rank order sets the cut: everything above it, and its ties, must be mined.
  let seen = 0;
  const cutIndex = ranked.findIndex((candidate) => outcomeOf(candidate) === 'tests' && ++seen === target);
  const cutoff = cutIndex >= 0 ? (ranked[cutIndex]?.score ?? null) : null;
  const unmined = ranked.filter((candidate) => outcomeOf(candidate) === undefined);
  if (cutIndex >= 0) {
    const isAbove = (candidate: LiteCandidate): boolean =>
      ranked.indexOf(candidate) <= cutIndex || sameScore(candidate.score, cutoff);
    const above = unmined.filter(isAbove);
    if (above.length === 0) return { ...base, cutoff, state: 'enough', next: [] };
  } else if (unmined.length === 0) {
    return { ...base, cutoff: null, state: 'exhausted', next: [] };
  }
  const next = nextInRankOrder(ranked, outcomeOf, target, (found + 1) / (mined + 1));
  return { ...base, cutoff, state: 'mining', next };
}

/**
 * The unmined candidates of a level to mine next: in rank order, only as deep as the target needs
 * if each of them becomes a task at the yield seen so far, and the ties of the last one. A cut set by
 * tasks found further down (other repositories' lower-scored tasks, mined before) does not make a
 * round mine everything above it at once: on xarray beside five mined repositories that was 469 of
 * its 660 candidates in the first round, most of which the next rounds' higher cut leaves out.
 */
function nextInRankOrder(
  ranked: readonly LiteCandidate[],
  outcomeOf: (candidate: LiteCandidate) => LiteOutcome | undefined,
  target: number,
  yieldSoFar: number,
): LiteCandidate[] {
  const next: LiteCandidate[] = [];
  let expected = 0;
  let stop = ranked.length;
  for (const [index, candidate] of ranked.entries()) {
    const outcome = outcomeOf(candidate);
    if (outcome === 'tests') expected += 1;
    else if (outcome === undefined) {
      next.push(candidate);
      expected += yieldSoFar;
    }
    if (expected >= target) {
      stop = index;
      break;
    }
  }
  const lastScore = ranked[stop]?.score ?? null;
  const isTie = (candidate: LiteCandidate): boolean =>
    outcomeOf(candidate) === undefined && sameScore(candidate.score, lastScore);
  const ties = ranked.slice(stop + 1).filter(isTie);
  return [...next, ...ties];
}

function sameScore(a: number | null, b: number | null): boolean {
  return (a ?? Number.NEGATIVE_INFINITY) === (b ?? Number.NEGATIVE_INFINITY);
}
