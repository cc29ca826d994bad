import type { CandidateModeName } from '@repocod/core';
import { CANDIDATE_MODE_NAMES, parseCandidateMode } from '@repocod/core';
import type { ParsedArgs } from './parse-args.js';
import { stringOption } from './parse-args.js';

/** The usage lines' words for `--candidates`. */
export const CANDIDATES_HELP = `--candidates MODE says which candidates mine and tasks take: repocod (the default:
REPOCOD's reading, the docstring rule) or ${CANDIDATE_MODE_NAMES.join(', ')}
(docs/fidelity.md says what each reads and what it gives on the eleven REPOCOD repositories).`;

/** `--candidates MODE` (see CANDIDATE_MODES), undefined when not given. */
export function candidatesOption(args: ParsedArgs): CandidateModeName | undefined {
  const value = stringOption(args, 'candidates');
  return value === undefined ? undefined : parseCandidateMode(value).name;
}
