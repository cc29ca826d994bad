import type { FunctionRecord, LineReplacement } from '@repocod/core';
import { invertReplacements, linesPatch, replaceAllLines } from '@repocod/core';

/** A task's pair of diffs for one side (code or tests): `pre` takes away, `gold` gives back. */
export interface PatchPair {
  readonly pre: string;
  readonly gold: string;
}

/**
 * The code patches of a task: `pre` deletes the canonical solution (every line after the docstring
 * through the function's last line) and inserts nothing, so decorators, signature and docstring stay
 * and the docstring-only body is valid Python; `gold` restores the lines byte for byte.
 */
export function codePatches(
  fn: Pick<FunctionRecord, 'file' | 'qualname' | 'definitionSpan' | 'docstringSpan' | 'signatureSpan'>,
  text: string,
): PatchPair {
  const start = (fn.docstringSpan ?? fn.signatureSpan).end + 1;
  const removal: LineReplacement = { start, end: fn.definitionSpan.end, lines: [] };
  return filePatchPair(fn.file, text, [removal]);
}

/** pre = the replacements on `text`; gold = their inverse on the result. */
export function filePatchPair(file: string, text: string, replacements: readonly LineReplacement[]): PatchPair {
  if (replacements.length === 0) return { pre: '', gold: '' };
  const changed = replaceAllLines(text, replacements);
  return {
    pre: linesPatch(file, text, replacements),
    gold: linesPatch(file, changed, invertReplacements(text, replacements)),
  };
}
