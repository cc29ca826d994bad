import { describe, expect, it } from 'vitest';
import type { RemovedTaskFacts } from './version-change-reasons.js';
import {
  ADDED_REASONS,
  addedReason,
  keptChange,
  REMOVED_REASONS,
  removedReason,
  solutionOfGoldPatch,
} from './version-change-reasons.js';

const CUTOFF = '2025-06-01T00:00:00Z';
const NEW_BODY = { kind: 'dated', changedAt: '2025-08-01T12:00:00Z', commit: 'c0ffee0123456789' } as const;
const OLD_BODY = { kind: 'dated', changedAt: '2024-01-10T12:00:00Z', commit: 'decaf00123456789' } as const;

/** A task B would release: every rule passes. Each case below breaks one fact (and the ones after it). */
const RELEASABLE: RemovedTaskFacts = {
  repositoryBuilt: true,
  function: { isCandidate: true, body: NEW_BODY },
  cutoff: CUTOFF,
  mining: 'tests',
  task: 'built',
  verdict: 'passed',
  selectedInB: true,
};

describe('removedReason: why a task of A is not in B', () => {
  it('gives each reason when its fact is the first to fail, in the order of REMOVED_REASONS', () => {
    const cases: [RemovedTaskFacts, string][] = [
      [{ ...RELEASABLE, repositoryBuilt: false, function: null, mining: 'not-mined' }, 'repository-not-built'],
      [{ ...RELEASABLE, function: null, mining: 'not-mined', task: 'none' }, 'function-gone'],
      [{ ...RELEASABLE, function: { isCandidate: false, body: OLD_BODY }, mining: 'not-mined' }, 'not-a-candidate'],
      [
        { ...RELEASABLE, function: { isCandidate: true, body: OLD_BODY }, mining: 'not-mined' },
        'body-unchanged-since-cutoff',
      ],
      [{ ...RELEASABLE, mining: 'not-mined', task: 'none', verdict: null }, 'not-mined'],
      [{ ...RELEASABLE, mining: 'no-tests', task: 'none', verdict: null }, 'no-relevant-tests'],
      [{ ...RELEASABLE, task: 'none', verdict: null }, 'no-task'],
      [{ ...RELEASABLE, verdict: 'failed' }, 'failed-validation'],
      [{ ...RELEASABLE, selectedInB: false }, 'not-selected'],
      [RELEASABLE, 'unexplained'],
    ];
    expect(cases.map(([facts]) => removedReason(facts).reason)).toEqual([...REMOVED_REASONS]);
    expect(cases.map(([, reason]) => reason)).toEqual([...REMOVED_REASONS]);
  });

  it('tries the rules in order: an earlier failing fact wins over every later one', () => {
    // Gone, and also unmined, taskless and unselected: gone is what happened first.
    const gone = { ...RELEASABLE, function: null, mining: 'no-tests', task: 'none', verdict: null, selectedInB: false };
    expect(removedReason(gone as RemovedTaskFacts).reason).toBe('function-gone');
    // An old body that was mined all the same (B built without the cutoff it is given): the cutoff decides.
    const old = { ...RELEASABLE, function: { isCandidate: true, body: OLD_BODY }, verdict: 'failed' } as const;
    expect(removedReason(old)).toEqual({
      reason: 'body-unchanged-since-cutoff',
      detail: 'body last changed 2024-01-10 in decaf0012345, not after the cutoff 2025-06-01',
    });
    // A validation that failed comes before not being selected (the selection passes over failed tasks).
    expect(removedReason({ ...RELEASABLE, verdict: 'infra-error', selectedInB: false }).reason).toBe(
      'failed-validation',
    );
  });

  it('skips the cutoff rule without a cutoff or a date, and counts a body without a code line as unchanged', () => {
    const undated = { ...RELEASABLE, function: { isCandidate: true, body: { kind: 'undated' } }, mining: 'no-tests' };
    expect(removedReason(undated as RemovedTaskFacts).reason).toBe('no-relevant-tests');
    const noCutoff = { ...RELEASABLE, cutoff: null, function: { isCandidate: true, body: OLD_BODY }, task: 'none' };
    expect(removedReason(noCutoff as RemovedTaskFacts).reason).toBe('no-task');
    const empty = { kind: 'dated', changedAt: null, commit: null } as const;
    expect(removedReason({ ...RELEASABLE, function: { isCandidate: true, body: empty } })).toEqual({
      reason: 'body-unchanged-since-cutoff',
      detail: 'the body has no code line, not after the cutoff 2025-06-01',
    });
    // Exactly at the cutoff is not after it (runner's changedSince: strictly after).
    const atCutoff = { kind: 'dated', changedAt: CUTOFF, commit: 'a'.repeat(40) } as const;
    expect(removedReason({ ...RELEASABLE, function: { isCandidate: true, body: atCutoff } }).reason).toBe(
      'body-unchanged-since-cutoff',
    );
  });
});

describe('addedReason: why a task of B is not in A', () => {
  const base = { commit: 'ab'.repeat(20), at: '2024-11-01T00:00:00Z' };

  it('gives each reason in the order of ADDED_REASONS', () => {
    const reasons = [
      addedReason({ repositoryInA: false, aBaseCommit: null, body: NEW_BODY }),
      addedReason({ repositoryInA: true, aBaseCommit: base, body: NEW_BODY }),
      addedReason({ repositoryInA: true, aBaseCommit: base, body: OLD_BODY }),
    ];
    expect(reasons.map((verdict) => verdict.reason)).toEqual([...ADDED_REASONS]);
    expect(reasons[1]?.detail).toBe('body changed 2025-08-01 in c0ffee012345, after abababababab (2024-11-01)');
  });

  it('says an undated body was left out of A, not that it is new', () => {
    expect(addedReason({ repositoryInA: true, aBaseCommit: base, body: { kind: 'undated' } })).toEqual({
      reason: 'not-in-a',
      detail: 'its body is not dated; the earlier version did not release it',
    });
  });
});

describe('kept tasks', () => {
  const patch = (body: string, at: number): string =>
    `--- a/pkg/mod.py\n+++ b/pkg/mod.py\n@@ -${at},2 +${at},3 @@\n     """Doc."""\n${body}\n \n`;

  it('compares the lines a gold patch restores, not where the hunk sits', () => {
    const before = solutionOfGoldPatch(patch('+    return x + 1', 10));
    expect(before).toBe('    return x + 1');
    expect(keptChange(before, solutionOfGoldPatch(patch('+    return x + 1', 42)))).toBe('same-body');
    expect(keptChange(before, solutionOfGoldPatch(patch('+    return 1 + x', 10)))).toBe('changed-body');
  });
});
