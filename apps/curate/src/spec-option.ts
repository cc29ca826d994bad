import { readFileSync } from 'node:fs';
import { RepocodError } from '@repocod/core';
import type { LiteMargin, SelectionSpec } from '@repocod/pipeline';
import { DEFAULT_LITE_MARGIN, parseLiteMargin, parseSelectionSpec, REPOCOD_LITE_SPEC } from '@repocod/pipeline';
import { levelsOption } from './levels-option.js';
import type { ParsedArgs } from './parse-args.js';
import { stringOption } from './parse-args.js';

/**
 * --spec FILE (select's JSON spec), REPOCOD-Lite's without it; `--levels MODE` takes the place of the
 * spec's `levels`.
 */
export function selectionSpecOption(args: ParsedArgs): SelectionSpec {
  const levels = levelsOption(args);
  const spec = specFile(args);
  return levels === undefined ? spec : { ...spec, levels };
}

function specFile(args: ParsedArgs): SelectionSpec {
  const file = stringOption(args, 'spec');
  if (file === undefined) return REPOCOD_LITE_SPEC;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new RepocodError(
      'file-unreadable',
      `${file}: cannot read the selection spec (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
    );
  }
  return parseSelectionSpec(text, file);
}

/** --margin 20% | N, the default 20% without it. */
export function marginOption(args: ParsedArgs): LiteMargin {
  const text = stringOption(args, 'margin');
  return text === undefined ? DEFAULT_LITE_MARGIN : parseLiteMargin(text);
}
