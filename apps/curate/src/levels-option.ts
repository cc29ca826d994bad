import type { LevelMode } from '@repocod/core';
import { LEVEL_MODES, parseLevelMode } from '@repocod/core';
import type { ParsedArgs } from './parse-args.js';
import { stringOption } from './parse-args.js';

/** The usage lines' words for `--levels`. */
export const LEVELS_HELP = `--levels MODE says how context levels are labelled: ${LEVEL_MODES.join(', ')} (default: the
manifest's \`levels\`, repocod-v1 for REPOCOD's repositories, else deps; docs/tasks.md states each rule).`;

/** `--levels MODE` (see LEVEL_MODES), undefined when not given. */
export function levelsOption(args: ParsedArgs): LevelMode | undefined {
  const value = stringOption(args, 'levels');
  return value === undefined ? undefined : parseLevelMode(value);
}
