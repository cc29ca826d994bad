/**
 * A source text split into lines that keep their own endings (`\n`, `\r\n`, or none on a last line
 * without one), so that a patch rebuilt from them gives back the exact bytes.
 */
export function splitLinesKeepingEnds(text: string): string[] {
  const lines = text.match(/[^\n]*\n|[^\n]+$/g);
  return lines === null ? [] : [...lines];
}

/** The line ending of a line as kept by splitLinesKeepingEnds: `\r\n`, `\n` or `` (the last line). */
export function lineEnding(line: string): string {
  if (line.endsWith('\r\n')) return '\r\n';
  return line.endsWith('\n') ? '\n' : '';
}

export interface LineReplacement {
  /** First replaced line, 1-based. */
  readonly start: number;
  /** Last replaced line; `start - 1` inserts before `start` without replacing anything. */
  readonly end: number;
  /** The new lines, each with its own ending. */
  readonly lines: readonly string[];
}

const CONTEXT = 3;

/**
 * A `git apply`-able unified diff (a/ and b/ paths) that replaces one range of lines of `text`, with
 * three lines of context as git writes them. Lines keep their endings in the patch, so a file with
 * CRLF endings is patched byte for byte, and a last line without a newline is marked as git marks it.
 */
export function lineReplacementPatch(path: string, text: string, replacement: LineReplacement): string {
  const lines = splitLinesKeepingEnds(text);
  const { start, end } = replacement;
  if (start < 1 || end < start - 1 || end > lines.length) {
    throw new RangeError(`${path}: cannot replace lines ${start}..${end} of a file of ${lines.length} lines`);
  }
  const before = lines.slice(Math.max(0, start - 1 - CONTEXT), start - 1);
  const removed = lines.slice(start - 1, end);
  const after = lines.slice(end, end + CONTEXT);
  const oldStart = start - before.length;
  const oldCount = before.length + removed.length + after.length;
  const newCount = before.length + replacement.lines.length + after.length;
  const body = [
    ...before.map((line) => patchLine(' ', line)),
    ...removed.map((line) => patchLine('-', line)),
    ...replacement.lines.map((line) => patchLine('+', line)),
    ...after.map((line) => patchLine(' ', line)),
  ];
  return [
    `diff --git a/${path} b/${path}\n`,
    `--- a/${path}\n`,
    `+++ b/${path}\n`,
    `@@ -${hunkRange(oldStart, oldCount)} +${hunkRange(oldStart, newCount)} @@\n`,
    ...body,
  ].join('');
}

/** The result of applying the replacement to the text, for callers that need the new source itself. */
export function replaceLines(text: string, replacement: LineReplacement): string {
  const lines = splitLinesKeepingEnds(text);
  return [...lines.slice(0, replacement.start - 1), ...replacement.lines, ...lines.slice(replacement.end)].join('');
}

function patchLine(marker: string, line: string): string {
  return lineEnding(line) === '' ? `${marker}${line}\n\\ No newline at end of file\n` : `${marker}${line}`;
}

/** git's hunk range: `start,count`, where an empty range names the line before it. */
function hunkRange(start: number, count: number): string {
  return count === 0 ? `${start - 1},0` : `${start},${count}`;
}
