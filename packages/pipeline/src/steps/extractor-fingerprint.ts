import type { CandidateFilterConfig, TestCodePatterns } from '@repocod/core';
import { PYTEST_TEST_CODE, REPOCOD_CANDIDATE_FILTER, contentHash } from '@repocod/core';
import type { ComplexitySettings } from '@repocod/metrics';
import { METRIC_VERSIONS, RADON_5_1_SETTINGS } from '@repocod/metrics';

/**
 * Bumped whenever the extraction itself changes in a way that changes stored rows, so that a rerun
 * re-extracts files whose bytes did not change.
 */
export const EXTRACTOR_VERSION = 2;

export interface ExtractionConfig {
  readonly settings: ComplexitySettings;
  readonly candidateFilter: CandidateFilterConfig;
  readonly testCode: TestCodePatterns;
}

export const DEFAULT_EXTRACTION_CONFIG: ExtractionConfig = {
  settings: RADON_5_1_SETTINGS,
  candidateFilter: REPOCOD_CANDIDATE_FILTER,
  testCode: PYTEST_TEST_CODE,
};

/**
 * A file is skipped on rerun only when both its bytes and this fingerprint are unchanged: the
 * fingerprint covers everything else a stored row depends on (our version, the grammar's and the
 * tokenizer's, the complexity settings, the candidate filter, the test-code patterns).
 */
export function extractorFingerprint(config: ExtractionConfig): string {
  return contentHash(
    JSON.stringify({
      extractor: EXTRACTOR_VERSION,
      versions: METRIC_VERSIONS,
      settings: config.settings,
      candidateFilter: config.candidateFilter,
      testCode: { fileNames: config.testCode.fileNames.map(String), folderNames: config.testCode.folderNames },
    }),
  ).slice(0, 16);
}
