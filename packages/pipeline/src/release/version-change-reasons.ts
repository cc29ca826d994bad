/**
 * Why a task of one released version is missing from the next, or new in it: facts in, one verdict out, nothing
 * read. The facts come from the catalog that built the newer version (B) and from the two versions' files
 * (version-diff.ts gathers them).
 *
 * The rules, stated once:
 * - A task of A missing from B gets the first of these that holds, in the order the pipeline loses a function on
 *   its way to a release: its repository was not built for B (no function of it in B's catalog); its function is
 *   not among B's functions at B's base commit (same file and qualified name: deleted, renamed or moved); it no
 *   longer passes the candidate filter; its body did not change after B's cutoff (`--changed-since`: its newest
 *   code line is not after the cutoff; a body never dated, or no cutoff known, skips this rule); mining never
 *   reached it (Lite-first mining mines only what the selection can pick); mining found no relevant test; no task
 *   was built of it, or its task fails its patch checks; its task's current validation failed; B's selection did
 *   not pick it (its quota was filled by higher-ranked tasks). A task that clears every rule is `unexplained`: the
 *   catalog holds it as B would release it, so it is not the catalog that built B.
 * - A task of B missing from A: A had no task of its repository; or its body's newest code line is later than A's
 *   base commit of the repository (written or changed after A was cut); else it was already there at A's commit
 *   (or is undated) and A's own pipeline left it out, which only A's catalog can say.
 * - A task in both is kept with the same body when its solution (the lines the gold patch restores) is the same
 *   text, and with a changed body otherwise.
 */

/** Why a task of A is not in B, in the order the rules are tried. */
export const REMOVED_REASONS = [
  'repository-not-built',
  'function-gone',
  'not-a-candidate',
  'body-unchanged-since-cutoff',
  'not-mined',
  'no-relevant-tests',
  'no-task',
  'failed-validation',
  'not-selected',
  'unexplained',
] as const;
export type RemovedReason = (typeof REMOVED_REASONS)[number];

/** Why a task of B is not in A, in the order the rules are tried. */
export const ADDED_REASONS = ['new-repository', 'changed-after-a', 'not-in-a'] as const;
export type AddedReason = (typeof ADDED_REASONS)[number];

/** What each reason means, for the report's legend and the card. */
export const REASON_TITLES: Readonly<Record<RemovedReason | AddedReason, string>> = {
  'repository-not-built': 'repository not built for this version',
  'function-gone': 'function deleted, renamed or moved',
  'not-a-candidate': 'no longer a candidate (docstring of 10 lines or fewer, or test code)',
  'body-unchanged-since-cutoff': 'body unchanged since the cutoff',
  'not-mined': 'not mined (Lite-first mining did not reach it)',
  'no-relevant-tests': 'no relevant tests now',
  'no-task': 'no task built, or its patch checks fail',
  'failed-validation': 'failed validation',
  'not-selected': 'not selected (its level was filled by higher-ranked tasks)',
  unexplained: 'unexplained (the catalog would release it: is it the one that built this version?)',
  'new-repository': 'repository new in this version',
  'changed-after-a': 'body written or changed after the earlier base commit',
  'not-in-a': 'already at the earlier base commit, left out of the earlier version',
};

/** When a body last changed at B's base commit, as `body_history` holds it. */
export type BodyDate =
  | { readonly kind: 'undated' }
  /** `changedAt` and `commit` are null for a body without a code line. */
  | { readonly kind: 'dated'; readonly changedAt: string | null; readonly commit: string | null };

/** What B's catalog and files say of a task of A that B does not hold. */
export interface RemovedTaskFacts {
  /** B's catalog holds functions of the task's repository. */
  readonly repositoryBuilt: boolean;
  /** The function, by file and qualified name, among B's functions; null when it is not. */
  readonly function: { readonly isCandidate: boolean; readonly body: BodyDate } | null;
  /** The `--changed-since` cutoff B was built with (UTC ISO); null when not known. */
  readonly cutoff: string | null;
  /** Mining's answer for the function in B's catalog. */
  readonly mining: 'tests' | 'no-tests' | 'not-mined';
  /** The task of the function in B's catalog. */
  readonly task: 'built' | 'checks-failed' | 'none';
  /** That task's validation verdict (B's validation record's, else the catalog's current one); null for none. */
  readonly verdict: 'passed' | 'failed' | 'infra-error' | null;
  /** B's validation record lists the task among B's selected tasks. */
  readonly selectedInB: boolean;
}

export interface Verdict<R> {
  readonly reason: R;
  /** The facts behind it, for people. */
  readonly detail: string;
}

/** The first rule that explains why a task of A is not in B (see the rules above). */
export function removedReason(facts: RemovedTaskFacts): Verdict<RemovedReason> {
  if (!facts.repositoryBuilt)
    return { reason: 'repository-not-built', detail: "no function of its repository in the version's catalog" };
  const fn = facts.function;
  if (fn === null) return { reason: 'function-gone', detail: 'no function of that file and name at the base commit' };
  if (!fn.isCandidate) return { reason: 'not-a-candidate', detail: 'fails the candidate filter at the base commit' };
  if (facts.cutoff !== null && fn.body.kind === 'dated' && !changedAfter(fn.body.changedAt, facts.cutoff)) {
    const when =
      fn.body.changedAt === null
        ? 'the body has no code line'
        : `body last changed ${day(fn.body.changedAt)} in ${(fn.body.commit ?? '').slice(0, 12)}`;
    return { reason: 'body-unchanged-since-cutoff', detail: `${when}, not after the cutoff ${day(facts.cutoff)}` };
  }
  if (facts.mining === 'not-mined') return { reason: 'not-mined', detail: 'mining did not reach it' };
  if (facts.mining === 'no-tests')
    return { reason: 'no-relevant-tests', detail: 'no test passes at the base commit and fails without the body' };
  if (facts.task !== 'built')
    return {
      reason: 'no-task',
      detail: facts.task === 'none' ? 'the tasks stage built no task of it' : 'its task fails its patch checks',
    };
  if (facts.verdict === 'failed' || facts.verdict === 'infra-error')
    return { reason: 'failed-validation', detail: `its current validation: ${facts.verdict}` };
  if (!facts.selectedInB)
    return {
      reason: 'not-selected',
      detail: facts.verdict === null ? 'never selected (not validated)' : 'validated, not in the final selection',
    };
  return { reason: 'unexplained', detail: 'selected and valid, yet not released' };
}

/** What A's files and B's catalog say of a task of B that A does not hold. */
export interface AddedTaskFacts {
  /** A released tasks of the same repository. */
  readonly repositoryInA: boolean;
  /** A's base commit of the repository and its timestamp; null when A has none. */
  readonly aBaseCommit: { readonly commit: string; readonly at: string } | null;
  readonly body: BodyDate;
}

/** The first rule that explains why a task of B is not in A (see the rules above). */
export function addedReason(facts: AddedTaskFacts): Verdict<AddedReason> {
  const base = facts.aBaseCommit;
  if (!facts.repositoryInA || base === null)
    return { reason: 'new-repository', detail: 'the earlier version has no task of its repository' };
  const body = facts.body;
  if (body.kind === 'dated' && body.changedAt !== null && changedAfter(body.changedAt, base.at))
    return {
      reason: 'changed-after-a',
      detail:
        `body changed ${day(body.changedAt)} in ${(body.commit ?? '').slice(0, 12)}, after ` +
        `${base.commit.slice(0, 12)} (${day(base.at)})`,
    };
  return {
    reason: 'not-in-a',
    detail:
      body.kind === 'undated'
        ? 'its body is not dated; the earlier version did not release it'
        : `its body is as at ${base.commit.slice(0, 12)}; the earlier version did not release it`,
  };
}

/** A task in both versions: the same body when its solution text is the same. */
export function keptChange(aSolution: string, bSolution: string): 'same-body' | 'changed-body' {
  return aSolution === bSolution ? 'same-body' : 'changed-body';
}

/**
 * The solution a gold code patch restores: its added lines without the `+`, in order. The context lines and the
 * hunk headers move with the rest of the file, so they are not part of it.
 */
export function solutionOfGoldPatch(patch: string): string {
  return patch
    .split('\n')
    .filter((line) => line.startsWith('+') && !line.startsWith('+++'))
    .map((line) => line.slice(1))
    .join('\n');
}

function changedAfter(changedAt: string | null, cutoff: string): boolean {
  return changedAt !== null && Date.parse(changedAt) > Date.parse(cutoff);
}

const day = (timestamp: string): string => timestamp.slice(0, 10);
