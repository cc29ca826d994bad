/**
 * Cutting text to a number of terminal columns. A screen that lets a line run past its width makes
 * Ink wrap it and pushes every line below down, so every line is cut to fit before it is drawn, by
 * columns (a CJK character or an emoji takes two, a combining mark none), never by UTF-16 units.
 */

const ELLIPSIS = '…';

// Ranges of East Asian Wide and Fullwidth characters (the blocks that occur in code, logs and names),
// enough to count columns the way terminals draw them without a dependency.
const WIDE_RANGES: readonly (readonly [number, number])[] = [
  [0x1100, 0x115f],
  [0x231a, 0x231b],
  [0x2329, 0x232a],
  [0x23e9, 0x23ec],
  [0x25fd, 0x25fe],
  [0x2614, 0x2615],
  [0x2648, 0x2653],
  [0x26aa, 0x26ab],
  [0x26bd, 0x26be],
  [0x26c4, 0x26c5],
  [0x2705, 0x2705],
  [0x270a, 0x270b],
  [0x274c, 0x274c],
  [0x2753, 0x2755],
  [0x2795, 0x2797],
  [0x2b1b, 0x2b1c],
  [0x2e80, 0x303e],
  [0x3041, 0x33ff],
  [0x3400, 0x4dbf],
  [0x4e00, 0x9fff],
  [0xa000, 0xa4cf],
  [0xa960, 0xa97f],
  [0xac00, 0xd7a3],
  [0xf900, 0xfaff],
  [0xfe10, 0xfe19],
  [0xfe30, 0xfe6f],
  [0xff00, 0xff60],
  [0xffe0, 0xffe6],
  [0x1f004, 0x1f004],
  [0x1f0cf, 0x1f0cf],
  [0x1f18e, 0x1f18e],
  [0x1f191, 0x1f19a],
  [0x1f200, 0x1f2ff],
  [0x1f300, 0x1f64f],
  [0x1f680, 0x1f6ff],
  [0x1f7e0, 0x1f7eb],
  [0x1f900, 0x1f9ff],
  [0x1fa70, 0x1faff],
  [0x20000, 0x2fffd],
  [0x30000, 0x3fffd],
];

const ZERO_WIDTH = /^[\p{Mn}\p{Me}\p{Cf}]$/u;
// biome-ignore lint/suspicious/noControlCharactersInRegex: terminal escape sequences, on purpose
const ANSI_ESCAPE = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]/gu;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are measured, on purpose
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/gu;
const TAB_STOP = 8;

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

function isWide(codePoint: number): boolean {
  for (const [low, high] of WIDE_RANGES) {
    if (codePoint < low) return false;
    if (codePoint <= high) return true;
  }
  return false;
}

function graphemeWidth(grapheme: string): number {
  const first = grapheme.codePointAt(0) ?? 0;
  if (first < 0x20 || (first >= 0x7f && first < 0xa0)) return 0;
  // A combining mark with nothing to combine with (the start of a string) takes no column.
  if (ZERO_WIDTH.test(String.fromCodePoint(first))) return 0;
  // A text-presentation symbol followed by VS16 (❤️) is drawn as a two-column emoji.
  if (isWide(first) || grapheme.includes('\ufe0f')) return 2;
  return 1;
}

function graphemes(text: string): string[] {
  return Array.from(segmenter.segment(text), (segment) => segment.segment);
}

/** Columns a terminal uses to draw `text` (no escapes or control characters expected: see `plain`). */
export function displayWidth(text: string): number {
  // Plain ASCII is the common case and needs no segmentation.
  if (/^[\u0020-\u007e]*$/u.test(text)) return text.length;
  let width = 0;
  for (const grapheme of graphemes(text)) width += graphemeWidth(grapheme);
  return width;
}

/**
 * Text as it can be measured and drawn: escapes (a log may hold pytest's colours) and control
 * characters removed, tabs expanded to the terminal's stops, so that what is measured is what shows.
 */
export function plain(text: string): string {
  const cleaned = text.replace(ANSI_ESCAPE, '');
  if (!cleaned.includes('\t')) return cleaned.replace(CONTROL, '');
  let out = '';
  for (const grapheme of graphemes(cleaned.replace(CONTROL, ''))) {
    out += grapheme === '\t' ? ' '.repeat(TAB_STOP - (displayWidth(out) % TAB_STOP)) : grapheme;
  }
  return out;
}

/** `text` cut at its end to at most `width` columns, with an ellipsis when something was cut. */
export function truncate(text: string, width: number): string {
  if (width <= 0) return '';
  if (displayWidth(text) <= width) return text;
  return `${takeColumns(graphemes(text), width - 1).join('')}${ELLIPSIS}`;
}

/** The start of `text` that fits in `width` columns, without an ellipsis. */
export function cutColumns(text: string, width: number): string {
  return takeColumns(graphemes(text), width).join('');
}

/** `text` cut at its start (the end of an instance id names the function, its start only the repository). */
export function truncateStart(text: string, width: number): string {
  if (width <= 0) return '';
  if (displayWidth(text) <= width) return text;
  return `${ELLIPSIS}${takeColumns(graphemes(text).reverse(), width - 1)
    .reverse()
    .join('')}`;
}

/** `text` cut or padded with spaces to exactly `width` columns (a table cell). */
export function fit(
  text: string,
  width: number,
  align: 'left' | 'right' = 'left',
  cut: 'end' | 'start' = 'end',
): string {
  const cutText = cut === 'end' ? truncate(text, width) : truncateStart(text, width);
  const padding = ' '.repeat(Math.max(0, width - displayWidth(cutText)));
  return align === 'left' ? `${cutText}${padding}` : `${padding}${cutText}`;
}

/** The leading graphemes of `parts` that fit in `width` columns. */
function takeColumns(parts: readonly string[], width: number): string[] {
  const taken: string[] = [];
  let used = 0;
  for (const part of parts) {
    const partWidth = graphemeWidth(part);
    if (used + partWidth > width) break;
    taken.push(part);
    used += partWidth;
  }
  return taken;
}
