import { RepocodError } from './errors.js';
import type { FunctionRecord } from './function-record.js';
import { spanLength } from './function-record.js';

/**
 * REPOCOD's target filter, as data a curator can change. REPOCOD keeps functions of library code
 * whose docstring literal spans more than 10 source lines (opening and closing quote lines counted).
 */
export interface CandidateFilterConfig {
  /** A function is a candidate when its docstring spans strictly more lines than this. */
  readonly minDocstringLinesExclusive: number;
  /** Whether methods nested in functions and closures may be targets (REPOCOD: yes). */
  readonly includeNested: boolean;
}

export const REPOCOD_CANDIDATE_FILTER: CandidateFilterConfig = {
  minDocstringLinesExclusive: 10,
  includeNested: true,
};

export function isCandidate(fn: FunctionRecord, config: CandidateFilterConfig = REPOCOD_CANDIDATE_FILTER): boolean {
  if (fn.isTestCode || fn.docstringSpan === null) return false;
  if (!config.includeNested && fn.nested) return false;
  return spanLength(fn.docstringSpan) > config.minDocstringLinesExclusive;
}

/** Validates a candidate filter read from a user's file; names the field that is wrong. */
export function parseCandidateFilter(value: unknown, source: string): CandidateFilterConfig {
  if (typeof value !== 'object' || value === null) {
    throw new RepocodError('config-invalid', `${source}: the candidate filter must be an object`);
  }
  const record = value as Record<string, unknown>;
  const lines = record['minDocstringLinesExclusive'] ?? REPOCOD_CANDIDATE_FILTER.minDocstringLinesExclusive;
  const nested = record['includeNested'] ?? REPOCOD_CANDIDATE_FILTER.includeNested;
  if (typeof lines !== 'number' || !Number.isInteger(lines) || lines < 0) {
    throw new RepocodError(
      'config-invalid',
      `${source}: field "minDocstringLinesExclusive" must be a whole number >= 0 (got ${JSON.stringify(lines)})`,
    );
  }
  if (typeof nested !== 'boolean') {
    throw new RepocodError(
      'config-invalid',
      `${source}: field "includeNested" must be true or false (got ${JSON.stringify(nested)})`,
    );
  }
  return { minDocstringLinesExclusive: lines, includeNested: nested };
}
