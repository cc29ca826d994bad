import type { AnalysedFunction, CandidateModeName, TestCodePatterns, TestNames } from '@repocod/core';
import { CANDIDATE_MODES, inCandidateMode } from '@repocod/core';
import { repositoryTestNames } from './repository-test-names.js';

/**
 * The candidates (functions that pass the candidate filter) a candidate mode keeps, read against the
 * checkout at `root` when the mode asks what the tests call. No mode, or `docstring`, keeps them all.
 */
export async function candidatesUnderMode<T extends AnalysedFunction>(
  candidates: readonly T[],
  mode: CandidateModeName | undefined,
  root: string,
  testCode?: TestCodePatterns,
): Promise<T[]> {
  const chosen = CANDIDATE_MODES[mode ?? 'docstring'];
  const tests: TestNames | undefined = chosen.namedByTests ? await repositoryTestNames(root, testCode) : undefined;
  return candidates.filter((fn) => inCandidateMode(fn, chosen, tests));
}
