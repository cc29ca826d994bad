import { plain } from './truncate.js';
import type { SpanStyle, StyledLine } from './styled-line.js';

/**
 * A unified diff (a task's pre or gold patch) as coloured lines. Lines are told apart by where they
 * stand, not only by their first character: inside a hunk, a removed line that reads `--- x` is a
 * removal, not a file header, so the hunks' line counts are followed.
 */

export type DiffLineKind = 'file' | 'meta' | 'hunk' | 'removed' | 'added' | 'context';

export const DIFF_STYLES: Readonly<Record<DiffLineKind, SpanStyle>> = {
  file: { bold: true },
  meta: { dim: true },
  hunk: { color: 'cyan' },
  removed: { color: 'red' },
  added: { color: 'green' },
  context: {},
};

const HUNK_HEADER = /^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@/u;

/** The kind of each line of `patch`. */
export function diffLineKinds(lines: readonly string[]): DiffLineKind[] {
  let oldLeft = 0;
  let newLeft = 0;
  return lines.map((row): DiffLineKind => {
    if (oldLeft > 0 || newLeft > 0) {
      if (row.startsWith('-')) {
        oldLeft -= 1;
        return 'removed';
      }
      if (row.startsWith('+')) {
        newLeft -= 1;
        return 'added';
      }
      // "\ No newline at end of file" belongs to the line before it.
      if (row.startsWith('\\')) return 'meta';
      oldLeft -= 1;
      newLeft -= 1;
      return 'context';
    }
    const hunk = HUNK_HEADER.exec(row);
    if (hunk !== null) {
      oldLeft = Number(hunk[1] ?? '1');
      newLeft = Number(hunk[2] ?? '1');
      return 'hunk';
    }
    if (row.startsWith('diff ') || row.startsWith('--- ') || row.startsWith('+++ ')) return 'file';
    // Past a hunk's counts (a hand-made patch may miscount) the first character is all there is.
    if (row.startsWith('-')) return 'removed';
    if (row.startsWith('+')) return 'added';
    return row.startsWith(' ') ? 'context' : 'meta';
  });
}

/** The patch as styled lines (an empty patch gives none). */
export function diffLines(patch: string): StyledLine[] {
  const trimmed = patch.replace(/\n+$/u, '');
  if (trimmed === '') return [];
  const rows = trimmed.split('\n');
  const kinds = diffLineKinds(rows);
  return rows.map((row, index) => [{ text: plain(row), ...DIFF_STYLES[kinds[index] ?? 'context'] }]);
}
