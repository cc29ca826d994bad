import type { LineReplacement } from '@repocod/core';
import { linesPatch, removedBody, replaceLines, splitLinesKeepingEnds } from '@repocod/core';
import { parsePythonText } from '@repocod/python';
import type { Parser } from 'web-tree-sitter';
import { completionCode } from './completion-code.js';
import type { InsertionMode } from './insertion-mode.js';
import { repocodReplacement } from './repocod-insertion.js';

/**
 * Where a completion goes: the task's function in the pre state (the base file with the body
 * removed). Lines before the removed body are the same in the base and the pre state, so the
 * function's first lines are numbered alike in both.
 */
export interface CompletionSite {
  readonly file: string;
  readonly qualname: string;
  /** The pre state's text of the file. */
  readonly preText: string;
  /** The first decorator's line (the `def` line when there is none), and the `def` line, 1-based. */
  readonly definitionStart: number;
  readonly defLine: number;
  /** The first line after the prompt (signature and docstring) in the pre state: where a body goes. */
  readonly bodyLine: number;
  readonly defIndent: string;
  readonly bodyIndent: string;
}

export class CompletionSiteError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
  ) {
    super(`${file}: no function whose prompt ends at line ${line - 1} and whose body the pre patch removes`);
    this.name = 'CompletionSiteError';
  }
}

/** The site of a task's function, from the base file and the task's code pre patch. */
export function completionSite(parser: Parser, baseText: string, preCodePatch: string): CompletionSite {
  const removal = removedBody(preCodePatch);
  const parsed = parsePythonText(parser, baseText, removal.file);
  parsed.tree.delete();
  const fn = parsed.functions.find(
    (candidate) =>
      (candidate.docstringSpan ?? candidate.signatureSpan).end + 1 === removal.start &&
      candidate.definitionSpan.end === removal.end,
  );
  if (fn === undefined) throw new CompletionSiteError(removal.file, removal.start);
  const lines = splitLinesKeepingEnds(baseText);
  const indentOf = (line: number): string => /^[ \t]*/.exec(lines[line - 1] ?? '')?.[0] ?? '';
  const defIndent = indentOf(fn.signatureSpan.start);
  return {
    file: removal.file,
    qualname: fn.qualname,
    preText: replaceLines(baseText, { start: removal.start, end: removal.end, lines: [] }),
    definitionStart: fn.definitionSpan.start,
    defLine: fn.signatureSpan.start,
    bodyLine: removal.start,
    defIndent,
    bodyIndent: fn.docstringSpan === null ? `${defIndent}    ` : indentOf(fn.docstringSpan.start),
  };
}

/** How a completion was read: a whole definition that replaces the function, or a body after the prompt. */
export type CompletionShape = 'definition' | 'body';

export interface CompletionPatch {
  readonly shape: CompletionShape;
  /** A diff against the pre state, applied after the task's pre patches. */
  readonly patch: string;
}

const DEFINITION_START = /^\s*(?:@|(?:async\s+)?def\s)/;

/**
 * A completion as a patch of the pre state, under an insertion mode (insertion-mode.ts). Null when it holds no code
 * (an empty fenced block, an empty output): an empty prediction.
 *
 * `lenient`: the code is read out of the output (completion-code.ts). When its first line starts a definition (`def`,
 * `async def`, or a decorator) it replaces the function from its `def` line (from its first decorator when the
 * completion brings decorators) through the prompt, re-indented to the function's column, so a method written at
 * column 0 lands inside its class; otherwise it is the body, re-indented to the docstring's column and inserted after
 * the prompt, as REPOCOD's evaluator appends the model's output to the prompt. Lines take the file's line ending.
 *
 * `repocod`: the output as REPOCOD's evaluator inserts it, verbatim (repocod-insertion.ts).
 */
export function completionPatch(
  site: CompletionSite,
  completion: string,
  mode: InsertionMode = 'lenient',
): CompletionPatch | null {
  if (mode === 'repocod') {
    const replacement = repocodReplacement(completion, site);
    if (replacement === null) return null;
    const shape: CompletionShape = replacement.start === site.defLine ? 'definition' : 'body';
    return { shape, patch: linesPatch(site.file, site.preText, [replacement]) };
  }
  const code = completionCode(completion);
  const first = code[0];
  if (first === undefined) return null;
  const shape: CompletionShape = DEFINITION_START.test(first) ? 'definition' : 'body';
  const ending = site.preText.includes('\r\n') ? '\r\n' : '\n';
  const indent = shape === 'definition' ? site.defIndent : site.bodyIndent;
  const lines = reindent(code, indent).map((line) => `${line}${ending}`);
  const from =
    shape === 'body' ? site.bodyLine : first.trimStart().startsWith('@') ? site.definitionStart : site.defLine;
  const replacement: LineReplacement = { start: from, end: site.bodyLine - 1, lines };
  return { shape, patch: linesPatch(site.file, site.preText, [replacement]) };
}

/** Removes the lines' common indentation and puts `indent` in its place (blank lines stay empty). */
function reindent(lines: readonly string[], indent: string): string[] {
  const filled = lines.filter((line) => line.trim() !== '');
  const common = Math.min(...filled.map((line) => /^[ \t]*/.exec(line)?.[0].length ?? 0));
  return lines.map((line) => (line.trim() === '' ? '' : `${indent}${line.slice(common)}`));
}
