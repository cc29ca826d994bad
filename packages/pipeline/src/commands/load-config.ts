import { readFileSync } from 'node:fs';
import { RepocodError, parseCandidateFilter, parseTestCodePatterns } from '@repocod/core';
import type { ExtractionConfig } from '../steps/extractor-fingerprint.js';
import { DEFAULT_EXTRACTION_CONFIG } from '../steps/extractor-fingerprint.js';

/**
 * A curator's config file (JSON): the candidate filter and the folders that hold test code.
 *   { "candidateFilter": { "minDocstringLinesExclusive": 10, "includeNested": true },
 *     "testCode": { "folderNames": ["tests", "testing"] } }
 * Unknown top-level fields are refused, so a typo does not silently leave a default in force.
 */
export function loadExtractionConfig(path: string): ExtractionConfig {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new RepocodError(
      'config-invalid',
      `${path}: cannot read the config file (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new RepocodError(
      'config-invalid',
      `${path}: not valid JSON (${error instanceof Error ? error.message : String(error)})`,
    );
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new RepocodError('config-invalid', `${path}: the config must be a JSON object`);
  }
  const unknown = Object.keys(value).filter((key) => key !== 'candidateFilter' && key !== 'testCode');
  if (unknown.length > 0) {
    throw new RepocodError(
      'config-invalid',
      `${path}: unknown field "${unknown[0]}" (known: candidateFilter, testCode)`,
    );
  }
  const record = value as Record<string, unknown>;
  const filter = record.candidateFilter;
  const testCode = record.testCode;
  return {
    ...DEFAULT_EXTRACTION_CONFIG,
    candidateFilter:
      filter === undefined
        ? DEFAULT_EXTRACTION_CONFIG.candidateFilter
        : parseCandidateFilter(filter, `${path}: candidateFilter`),
    testCode:
      testCode === undefined
        ? DEFAULT_EXTRACTION_CONFIG.testCode
        : parseTestCodePatterns(testCode, `${path}: testCode`),
  };
}
