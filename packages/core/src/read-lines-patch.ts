import type { LineReplacement } from './line-patch.js';
import { replaceAllLines, splitLinesKeepingEnds } from './line-patch.js';

/** A patch that does not fit the text it is applied to: the file, and the old line where it first differs. */
export class PatchMismatchError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    readonly reason: string,
  ) {
    super(`${file}:${line}: the patch does not apply (${reason}); was it made from this commit's file?`);
    this.name = 'PatchMismatchError';
  }
}

/** One line of a hunk: `' '` context, `'-'` removed, `'+'` added; `oldLine` is where it stands in the old file. */
interface HunkLine {
  readonly marker: ' ' | '-' | '+';
  readonly oldLine: number;
  /** The line with its own ending (none when a `\ No newline at end of file` marker follows it). */
  readonly text: string;
}

const HUNK_HEADER = /^@@ -(\d+)(?:,(\d+))? \+\d+(?:,(\d+))? @@/;

/**
 * The lines of each file's hunks in a unified diff as this project writes them (linesPatch: a/ and b/ paths, git's
 * hunk headers, `\ No newline at end of file` after a last line without one). A hunk is read for as many old and new
 * lines as its header counts, so a removed line that reads `-- x` or an added one that reads `++ x` is never taken
 * for a file's header. Renames, new and deleted files are not in such patches and are not read.
 */
function hunkLines(patch: string): Map<string, HunkLine[]> {
  const files = new Map<string, HunkLine[]>();
  let current: HunkLine[] | null = null;
  let oldLine = 0;
  let oldLeft = 0;
  let newLeft = 0;
  const lines = splitLinesKeepingEnds(patch);
  for (const [index, line] of lines.entries()) {
    const marker = line[0];
    if (oldLeft + newLeft > 0 && current !== null && (marker === ' ' || marker === '-' || marker === '+')) {
      // The line before a "\ No newline" marker had its newline added by the patch, not by the file.
      const text = lines[index + 1]?.startsWith('\\') ? line.slice(1).replace(/\r?\n$/, '') : line.slice(1);
      current.push({ marker, oldLine, text });
      if (marker !== '+') {
        oldLine++;
        oldLeft--;
      }
      if (marker !== '-') newLeft--;
      continue;
    }
    if (line.startsWith('--- ')) {
      const path = line.slice(4).replace(/\t.*$/s, '').trim().replace(/^a\//, '');
      current = files.get(path) ?? [];
      files.set(path, current);
      continue;
    }
    const header = HUNK_HEADER.exec(line);
    if (header !== null) {
      oldLeft = header[2] === undefined ? 1 : Number(header[2]);
      newLeft = header[3] === undefined ? 1 : Number(header[3]);
      // An empty old range names the line before it.
      oldLine = oldLeft === 0 ? Number(header[1]) + 1 : Number(header[1]);
    }
  }
  return files;
}

/**
 * A unified diff read back into each file's line replacements: the inverse of linesPatch. Each run of removed and
 * added lines between context lines is one replacement of the old file's lines.
 */
export function readLinesPatch(patch: string): Map<string, LineReplacement[]> {
  const files = new Map<string, LineReplacement[]>();
  for (const [file, lines] of hunkLines(patch)) {
    const replacements: LineReplacement[] = [];
    let open: { start: number; end: number; lines: string[] } | null = null;
    for (const line of lines) {
      if (line.marker === ' ') {
        if (open !== null) replacements.push(open);
        open = null;
        continue;
      }
      open ??= { start: line.oldLine, end: line.oldLine - 1, lines: [] };
      if (line.marker === '-') open.end = line.oldLine;
      else open.lines.push(line.text);
    }
    if (open !== null) replacements.push(open);
    files.set(file, replacements);
  }
  return files;
}

/**
 * The files a patch touches, patched: each file's text (from `textOf`) with its replacements made. Every context and
 * removed line is checked against the text first, so a patch of another commit is refused, never half applied.
 */
export function applyLinesPatch(patch: string, textOf: (file: string) => string): Map<string, string> {
  const replacements = readLinesPatch(patch);
  const patched = new Map<string, string>();
  for (const [file, lines] of hunkLines(patch)) {
    const text = textOf(file);
    const old = splitLinesKeepingEnds(text);
    for (const line of lines) {
      if (line.marker === '+') continue;
      const actual = old[line.oldLine - 1];
      if (actual !== line.text)
        throw new PatchMismatchError(
          file,
          line.oldLine,
          actual === undefined
            ? 'the file is shorter'
            : `it expects ${JSON.stringify(line.text.trimEnd().slice(0, 60))}`,
        );
    }
    patched.set(file, replaceAllLines(text, replacements.get(file) ?? []));
  }
  return patched;
}
