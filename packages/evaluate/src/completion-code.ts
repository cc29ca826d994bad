/**
 * The code in a model's output, read leniently. The rules, stated once:
 * 1. A fenced block (a line of three backticks with an optional language, then a closing line of three backticks)
 *    is the code: the first one, the text before and after it dropped.
 * 2. Without a whole block, lines that are only a fence are dropped: an opening fence never closed (generation cut
 *    off), or a closing one never opened (REPOCOD's inference example stops generating at the fence token and keeps
 *    it in the output).
 * 3. A leading tab is one level of indentation: each is read as four spaces, so tabs and spaces do not mix.
 * 4. Blank lines before and after the code are dropped.
 * The lines come without their endings; an output without code gives none.
 */
export function completionCode(output: string): string[] {
  const lines = output.split(/\r?\n/);
  const block = fencedBlock(lines);
  const code = block ?? lines.filter((line) => !FENCE_ONLY.test(line));
  return trimBlankLines(code.map(expandLeadingTabs));
}

const FENCE_OPEN = /^\s*```[\w+.-]*\s*$/;
const FENCE_CLOSE = /^\s*```\s*$/;
/** A line that is only a fence, or the start of one that a stop token cut (two backticks). */
const FENCE_ONLY = /^\s*``+[\w+.-]*\s*$/;

function fencedBlock(lines: readonly string[]): string[] | null {
  const open = lines.findIndex((line) => FENCE_OPEN.test(line));
  if (open < 0) return null;
  const close = lines.findIndex((line, index) => index > open && FENCE_CLOSE.test(line));
  return close < 0 ? null : lines.slice(open + 1, close);
}

function expandLeadingTabs(line: string): string {
  const indent = /^[ \t]*/.exec(line)?.[0] ?? '';
  return indent.includes('\t') ? `${indent.replaceAll('\t', '    ')}${line.slice(indent.length)}` : line;
}

function trimBlankLines(lines: readonly string[]): string[] {
  let start = 0;
  let end = lines.length;
  while (start < end && (lines[start] ?? '').trim() === '') start++;
  while (end > start && (lines[end - 1] ?? '').trim() === '') end--;
  return lines.slice(start, end);
}
