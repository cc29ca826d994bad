import { describe, expect, it } from 'vitest';
import type { LiteCandidate, LiteOutcome, LitePlan, LitePlanInput } from './lite-plan.js';
import { liteKey, marginTasks, parseLiteMargin, planLiteMining } from './lite-plan.js';

const NO_QUOTAS = { 'self-contained': 0, 'file-level': 0, 'repo-level': 0 };

function candidate(id: string, score: number | null, options: Partial<LiteCandidate> = {}): LiteCandidate {
  return { repository: 'r', functionId: id, level: 'self-contained', score, tieBreak: id, ...options };
}

function outcomes(entries: readonly (readonly [LiteCandidate, LiteOutcome])[]): Map<string, LiteOutcome> {
  return new Map(entries.map(([fn, outcome]) => [liteKey(fn.repository, fn.functionId), outcome]));
}

function plan(
  candidates: readonly LiteCandidate[],
  mined: readonly (readonly [LiteCandidate, LiteOutcome])[],
  quota: number,
  margin: LitePlanInput['margin'] = { tasks: 0 },
): LitePlan {
  return planLiteMining({
    candidates,
    outcomes: outcomes(mined),
    quotas: { ...NO_QUOTAS, 'self-contained': quota },
    margin,
  });
}

const ids = (result: LitePlan): string[] => result.next.map((fn) => `${fn.repository}:${fn.functionId}`);

describe('planLiteMining', () => {
  it('starts with the best quota + margin candidates of each level and nothing of a level with quota 0', () => {
    const fns = [10, 9, 8, 7, 6, 5, 4].map((score) => candidate(`f${score}`, score));
    const other = candidate('g', 100, { level: 'repo-level' });
    const result = plan([...fns, other], [], 2, { percent: 50 });
    expect(ids(result)).toEqual(['r:f10', 'r:f9', 'r:f8']);
    expect(result.done).toBe(false);
    expect(result.levels.find((level) => level.level === 'repo-level')?.state).toBe('enough');
  });

  it('stops when the target is found and everything above it is mined', () => {
    const [a, b, c, d] = [4, 3, 2, 1].map((score) => candidate(`f${score}`, score)) as [
      LiteCandidate,
      LiteCandidate,
      LiteCandidate,
      LiteCandidate,
    ];
    const result = plan(
      [a, b, c, d],
      [
        [a, 'tests'],
        [b, 'tests'],
      ],
      2,
    );
    expect(result.done).toBe(true);
    expect(result.next).toEqual([]);
    expect(result.levels[0]).toMatchObject({ state: 'enough', found: 2, mined: 2, cutoff: 3, candidates: 4 });
  });

  it('mines every candidate tied with the cutoff score before stopping, whatever their tie-break', () => {
    const top = candidate('top', 9);
    const tiedA = candidate('a', 5);
    const tiedB = candidate('b', 5, { tieBreak: 'zz' });
    const tiedC = candidate('c', 5, { repository: 'other' });
    const low = candidate('low', 1);
    const first = plan(
      [low, tiedC, tiedB, tiedA, top],
      [
        [top, 'tests'],
        [tiedA, 'tests'],
      ],
      2,
    );
    expect(first.done).toBe(false);
    expect(first.levels[0]?.cutoff).toBe(5);
    expect(ids(first)).toEqual(['other:c', 'r:b']);
    const second = plan(
      [low, tiedC, tiedB, tiedA, top],
      [
        [top, 'tests'],
        [tiedA, 'tests'],
        [tiedB, 'no-tests'],
        [tiedC, 'tests'],
      ],
      2,
    );
    expect(second.done).toBe(true);
  });

  it('plans the ties of the last planned candidate in the same round', () => {
    const fns = [candidate('a', 9), candidate('b', 4), candidate('c', 4), candidate('d', 4), candidate('e', 1)];
    expect(ids(plan(fns, [], 2))).toEqual(['r:a', 'r:b', 'r:c', 'r:d']);
  });

  it('says exhausted, not done with a shortfall hidden, when a level has fewer candidates than its quota', () => {
    const fns = [candidate('a', 3), candidate('b', 2)];
    const first = plan(fns, [], 5);
    expect(ids(first)).toEqual(['r:a', 'r:b']);
    const second = plan(
      fns,
      [
        [fns[0] as LiteCandidate, 'tests'],
        [fns[1] as LiteCandidate, 'no-tests'],
      ],
      5,
    );
    expect(second.done).toBe(true);
    expect(second.levels[0]).toMatchObject({ state: 'exhausted', found: 1, mined: 2, cutoff: null });
  });

  it(
    'counts neither errors nor failed checks as tasks, does not plan them again, and widens the next round by the ' +
      'yield',
    () => {
      const fns = [9, 8, 7, 6, 5, 4, 3, 2, 1].map((score) => candidate(`f${score}`, score));
      const [f9, f8, f7] = fns as [LiteCandidate, LiteCandidate, LiteCandidate];
      const result = plan(
        fns,
        [
          [f9, 'error'],
          [f8, 'failed-checks'],
          [f7, 'tests'],
        ],
        3,
      );
      // 1 task from 3 mined: yield (1+1)/(3+1) = 1/2, so the 2 missing tasks need 4 more candidates.
      expect(ids(result)).toEqual(['r:f6', 'r:f5', 'r:f4', 'r:f3']);
      expect(result.levels[0]).toMatchObject({ state: 'mining', found: 1, mined: 3, next: 4 });
    },
  );

  it('mines an unmined candidate ranked above the cut (one a previous run left out) before stopping', () => {
    const [a, b, c] = [candidate('a', 9), candidate('b', 8), candidate('c', 7)];
    const result = plan(
      [a, b, c],
      [
        [b, 'tests'],
        [c, 'tests'],
      ],
      2,
    );
    expect(ids(result)).toEqual(['r:a']);
    expect(result.done).toBe(false);
  });

  it('mines in rank order only as deep as the target needs, even when lower tasks found earlier set a low cut', () => {
    // o was mined before (five tasks, low scores); x has ten unmined candidates above all of them.
    const low = [1, 2, 3, 4, 5].map((score) => candidate(`o${score}`, score, { repository: 'o' }));
    const high = Array.from({ length: 10 }, (_, index) => candidate(`x${index}`, 100 - index, { repository: 'x' }));
    const mined = low.map((fn) => [fn, 'tests'] as const);
    const first = plan([...low, ...high], mined, 3);
    // Yield (5+1)/(5+1) = 1: three candidates of x can fill the target, not the ten above the cut at o3.
    expect(ids(first)).toEqual(['x:x0', 'x:x1', 'x:x2']);
    const round1 = [...mined, [high[0]!, 'tests'], [high[1]!, 'no-tests'], [high[2]!, 'tests']] as const;
    const second = plan([...low, ...high], round1, 3);
    // Yield now (7+1)/(8+1): one more task is wanted, and one candidate is worth 0.89 of one.
    expect(ids(second)).toEqual(['x:x3', 'x:x4']);
    const third = plan([...low, ...high], [...round1, [high[3]!, 'tests']], 3);
    expect(third.done).toBe(true);
    expect(third.levels[0]).toMatchObject({ state: 'enough', cutoff: 97 });
  });

  it('interleaves several repositories by score and tie-break', () => {
    const fns = [
      candidate('x1', 10, { repository: 'x' }),
      candidate('y1', 9, { repository: 'y' }),
      candidate('x2', 8, { repository: 'x' }),
      candidate('y2', 8, { repository: 'y', tieBreak: 'a' }),
      candidate('x3', 1, { repository: 'x' }),
    ];
    const result = plan(fns, [], 3);
    expect(ids(result)).toEqual(['x:x1', 'y:y1', 'y:y2', 'x:x2']);
    const after = plan(
      fns,
      [
        [fns[0] as LiteCandidate, 'tests'],
        [fns[1] as LiteCandidate, 'tests'],
        [fns[2] as LiteCandidate, 'tests'],
        [fns[3] as LiteCandidate, 'no-tests'],
      ],
      3,
    );
    expect(after.done).toBe(true);
    expect(after.levels[0]?.cutoff).toBe(8);
  });

  it('ranks a null score last', () => {
    expect(ids(plan([candidate('n', null), candidate('a', 0)], [], 1))).toEqual(['r:a']);
  });
});

describe('margins', () => {
  it('reads a percentage of the quota (rounded up) or a number of tasks', () => {
    expect(marginTasks(parseLiteMargin('20%'), 66)).toBe(14);
    expect(marginTasks(parseLiteMargin('0%'), 66)).toBe(0);
    expect(marginTasks(parseLiteMargin('5'), 66)).toBe(5);
    expect(() => parseLiteMargin('-3')).toThrow(/--margin must be/);
    expect(() => parseLiteMargin('lots')).toThrow(/--margin must be/);
  });
});
