import type { AnalysedFunction, CandidateModeName, TestNames } from '@repocod/core';
import { CANDIDATE_MODE_NAMES, CANDIDATE_MODES, inCandidateMode } from '@repocod/core';
import type { MiningOutcomes } from '../candidates/mining-outcomes.js';
import { functionKey } from '../candidates/mining-outcomes.js';

/** One candidate mode on one repository: how many candidates, how many of them mined, how many tasks. */
export interface CandidateModeCount {
  readonly candidates: number;
  /** Candidates mining has an answer for (errors excluded). */
  readonly mined: number;
  /** Mined candidates with relevant tests: the tasks the mode gives, when every candidate is mined. */
  readonly withTests: number;
}

export type CandidateModeCounts = Readonly<Record<CandidateModeName, CandidateModeCount>>;

/**
 * Every candidate mode measured on a repository's candidates (the docstring rule's). The modes only
 * narrow that rule, so one mining of its candidates answers for all of them: a mode's tasks are its
 * candidates that mining found relevant tests for.
 */
export function candidateModeCounts(
  candidates: readonly AnalysedFunction[],
  tests: TestNames,
  outcomes: MiningOutcomes,
): CandidateModeCounts {
  return Object.fromEntries(
    CANDIDATE_MODE_NAMES.map((name) => {
      const chosen = candidates.filter((fn) => inCandidateMode(fn, CANDIDATE_MODES[name], tests));
      const mined = chosen.filter((fn) => outcomes.has(functionKey(fn)));
      const count: CandidateModeCount = {
        candidates: chosen.length,
        mined: mined.length,
        withTests: mined.filter((fn) => outcomes.get(functionKey(fn)) === true).length,
      };
      return [name, count];
    }),
  ) as Record<CandidateModeName, CandidateModeCount>;
}
