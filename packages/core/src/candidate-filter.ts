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

const FILTER_FIELDS = ['minDocstringLinesExclusive', 'includeNested'] as const;

/**
 * Validates a candidate filter read from a user's file; names the field that is wrong. A missing
 * field takes REPOCOD's value; an unknown field or an explicit null is refused, so a typo never
 * leaves a default silently in force.
 */
export function parseCandidateFilter(value: unknown, source: string): CandidateFilterConfig {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new RepocodError('config-invalid', `${source}: the candidate filter must be an object`);
  }
  const unknownField = Object.keys(value).find((key) => !(FILTER_FIELDS as readonly string[]).includes(key));
  if (unknownField !== undefined) {
    throw new RepocodError(
      'config-invalid',
      `${source}: unknown field "${unknownField}" (known: ${FILTER_FIELDS.join(', ')})`,
    );
  }
  const record = value as Record<string, unknown>;
  const lines =
    'minDocstringLinesExclusive' in record
      ? record.minDocstringLinesExclusive
      : REPOCOD_CANDIDATE_FILTER.minDocstringLinesExclusive;
  const nested = 'includeNested' in record ? record.includeNested : REPOCOD_CANDIDATE_FILTER.includeNested;
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
