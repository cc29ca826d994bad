import type { FunctionRecord, LineReplacement } from '@repocod/core';
import { lineEnding, lineReplacementPatch, replaceLines, splitLinesKeepingEnds } from '@repocod/core';

/** What mining needs of an extracted function: where it is and its spans. */
export type MiningFunction = Pick<
  FunctionRecord,
  'file' | 'name' | 'qualname' | 'definitionSpan' | 'signatureSpan' | 'docstringSpan'
> & {
  /** The catalog's function id. */
  readonly id: string;
};

/**
 * One function with its mutation: the canonical solution (every line after the docstring through
 * the function's last line) replaced by one line that raises AssertionError. Decorators, signature
 * and docstring stay. The same text goes into the file patch of a fresh-process or whole-suite run
 * and into the code object the in-process plugin compiles, so all modes test the same mutation.
 */
export interface MutationTarget {
  readonly id: string;
  /** Repository-relative path. */
  readonly file: string;
  readonly name: string;
  readonly qualname: string;
  /** The first decorator's line, else the `def` line: Python's `co_firstlineno` for the function. */
  readonly firstLine: number;
  /** Replaced lines, 1-based and inclusive; bodyEnd = bodyStart - 1 when the solution is empty. */
  readonly bodyStart: number;
  readonly bodyEnd: number;
  /** The line that replaces them, without its line ending. */
  readonly replacement: string;
  /** A `git apply`-able diff that writes the mutation into the file. */
  readonly patch: string;
}

/** What a mutated function raises: a failure's output that holds it was caused by the mutation itself. */
export function mutationMessage(qualname: string): string {
  return `repocod-kit mining: the body of ${qualname} was removed`;
}

export function mutationTarget(fn: MiningFunction, fileText: string): MutationTarget {
  const lines = splitLinesKeepingEnds(fileText);
  const bodyStart = (fn.docstringSpan ?? fn.signatureSpan).end + 1;
  const bodyEnd = fn.definitionSpan.end;
  const indent = bodyIndent(fn, lines, bodyStart, bodyEnd);
  const replacement = `${indent}raise AssertionError(${pythonString(mutationMessage(fn.qualname))})`;
  const edit = replacementEdit(lines, bodyStart, bodyEnd, replacement);
  return {
    id: fn.id,
    file: fn.file,
    name: fn.name,
    qualname: fn.qualname,
    firstLine: fn.definitionSpan.start,
    bodyStart,
    bodyEnd,
    replacement,
    patch: lineReplacementPatch(fn.file, fileText, edit),
  };
}

/** The mutated file, as the patch leaves it. */
export function mutatedSource(
  target: Pick<MutationTarget, 'bodyStart' | 'bodyEnd' | 'replacement'>,
  fileText: string,
): string {
  return replaceLines(
    fileText,
    replacementEdit(splitLinesKeepingEnds(fileText), target.bodyStart, target.bodyEnd, target.replacement),
  );
}

function replacementEdit(
  lines: readonly string[],
  bodyStart: number,
  bodyEnd: number,
  replacement: string,
): LineReplacement {
  if (bodyEnd >= bodyStart) {
    const ending = lineEnding(lines[bodyEnd - 1] ?? '');
    return { start: bodyStart, end: bodyEnd, lines: [replacement + ending] };
  }
  // No solution (a docstring-only body): the raise goes after the docstring's last line, which
  // gains a line ending if it was the file's last line without one.
  const previous = lines[bodyStart - 2] ?? '';
  const ending = lineEnding(previous);
  if (ending === '') return { start: bodyStart - 1, end: bodyStart - 1, lines: [`${previous}\n`, `${replacement}\n`] };
  return { start: bodyStart, end: bodyStart - 1, lines: [replacement + ending] };
}

/** The indentation of the body: its first statement's, else the docstring's, else one level in from the def. */
function bodyIndent(fn: MiningFunction, lines: readonly string[], bodyStart: number, bodyEnd: number): string {
  for (let line = bodyStart; line <= bodyEnd; line++) {
    const text = (lines[line - 1] ?? '').replace(/\r?\n$/, '');
    const stripped = text.trimStart();
    if (stripped !== '' && !stripped.startsWith('#')) return leadingWhitespace(text);
  }
  if (fn.docstringSpan !== null && fn.docstringSpan.start > fn.signatureSpan.end)
    return leadingWhitespace(lines[fn.docstringSpan.start - 1] ?? '');
  const defIndent = leadingWhitespace(lines[fn.signatureSpan.start - 1] ?? '');
  return defIndent + (defIndent.includes('\t') ? '\t' : '    ');
}

function leadingWhitespace(text: string): string {
  return /^[ \t]*/.exec(text)?.[0] ?? '';
}

function pythonString(text: string): string {
  return `"${text.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
}
