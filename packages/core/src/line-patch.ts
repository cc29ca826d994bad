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

/**
 * A `git apply`-able unified diff of several non-overlapping replacements in one file, with three
 * lines of context; replacements whose contexts touch share a hunk, as git writes them.
 */
export function linesPatch(path: string, text: string, replacements: readonly LineReplacement[]): string {
  const lines = splitLinesKeepingEnds(text);
  const edits = [...replacements].sort((a, b) => a.start - b.start);
  for (const [index, edit] of edits.entries()) {
    if (edit.start < 1 || edit.end < edit.start - 1 || edit.end > lines.length) {
      throw new RangeError(
        `${path}: cannot replace lines ${edit.start}..${edit.end} of a file of ${lines.length} lines`,
      );
    }
    const previous = edits[index - 1];
    if (previous !== undefined && edit.start <= previous.end)
      throw new RangeError(
        `${path}: replacements ${previous.start}..${previous.end} and ${edit.start}..${edit.end} overlap`,
      );
  }
  // Group edits whose context windows meet into hunks.
  const groups: LineReplacement[][] = [];
  for (const edit of edits) {
    const group = groups.at(-1);
    const last = group?.at(-1);
    if (group !== undefined && last !== undefined && edit.start - 1 - last.end <= 2 * CONTEXT) group.push(edit);
    else groups.push([edit]);
  }
  const hunks: string[] = [];
  let shift = 0;
  for (const group of groups) {
    const first = group[0] as LineReplacement;
    const last = group.at(-1) as LineReplacement;
    const from = Math.max(1, first.start - CONTEXT);
    const to = Math.min(lines.length, last.end + CONTEXT);
    const body: string[] = [];
    let oldCount = 0;
    let newCount = 0;
    let line = from;
    for (const edit of group) {
      for (; line < edit.start; line++, oldCount++, newCount++) body.push(patchLine(' ', lines[line - 1] ?? ''));
      for (; line <= edit.end; line++, oldCount++) body.push(patchLine('-', lines[line - 1] ?? ''));
      for (const added of edit.lines) {
        body.push(patchLine('+', added));
        newCount++;
      }
    }
    for (; line <= to; line++, oldCount++, newCount++) body.push(patchLine(' ', lines[line - 1] ?? ''));
    hunks.push(`@@ -${hunkRange(from, oldCount)} +${hunkRange(from + shift, newCount)} @@\n`, ...body);
    shift += newCount - oldCount;
  }
  return [`diff --git a/${path} b/${path}\n`, `--- a/${path}\n`, `+++ b/${path}\n`, ...hunks].join('');
}

/** The text with every replacement made. */
export function replaceAllLines(text: string, replacements: readonly LineReplacement[]): string {
  const lines = splitLinesKeepingEnds(text);
  const out: string[] = [];
  let line = 1;
  for (const edit of [...replacements].sort((a, b) => a.start - b.start)) {
    out.push(...lines.slice(line - 1, edit.start - 1), ...edit.lines);
    line = edit.end + 1;
  }
  out.push(...lines.slice(line - 1));
  return out.join('');
}

/** The replacements that turn `replaceAllLines(text, replacements)` back into `text`. */
export function invertReplacements(text: string, replacements: readonly LineReplacement[]): LineReplacement[] {
  const lines = splitLinesKeepingEnds(text);
  const inverse: LineReplacement[] = [];
  let shift = 0;
  for (const edit of [...replacements].sort((a, b) => a.start - b.start)) {
    const start = edit.start + shift;
    inverse.push({ start, end: start + edit.lines.length - 1, lines: lines.slice(edit.start - 1, edit.end) });
    shift += edit.lines.length - (edit.end - edit.start + 1);
  }
  return inverse;
}
