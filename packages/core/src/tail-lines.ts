/**
 * How {@link tailLines} cuts a text into lines and what it makes of the text's end. The places that show the end of
 * a log read it in one of three ways, and each names its own so that its output stays what it was:
 *
 * - `'file'` (the default), the way a log file is read: '\n' or '\r\n' ends a line (a '\r' at the end of a line is
 *   dropped), so a final line break ends the last line instead of starting an empty one, and empty text has no
 *   lines: 'a\r\nb\n' gives ['a', 'b'], '' gives [].
 * - `'trimmed'`: trailing white space (final line breaks, blank last lines, spaces) is dropped first, so the tail
 *   ends at the last printed line; the rest is cut at each '\n' only, a '\r' staying at the end of its line, and
 *   empty or blank text is one empty line: 'a\r\nb\n\n' gives ['a\r', 'b'], '' gives [''].
 * - `'verbatim'`: cut at each '\n' and nothing else, as `text.split('\n')` cuts it: a '\r' stays, a text that ends in
 *   '\n' ends with an empty line, and empty text is one empty line: 'a\r\nb\n' gives ['a\r', 'b', ''], '' gives [''].
 */
export type LineReading = 'file' | 'trimmed' | 'verbatim';

/**
 * The last `count` lines of `text` read as `reading` says (see {@link LineReading}), for the end of a log in a message
 * or on screen: all of them when there are fewer than `count`, none when `count` is 0 or less.
 */
export function tailLines(text: string, count: number, reading: LineReading = 'file'): string[] {
  const lines = cutLines(text, reading);
  return lines.slice(Math.max(0, lines.length - count));
}

function cutLines(text: string, reading: LineReading): string[] {
  if (reading === 'verbatim') return text.split('\n');
  if (reading === 'trimmed') return text.trimEnd().split('\n');
  const lines = text.split('\n').map((line) => line.replace(/\r$/, ''));
  if (lines.at(-1) === '') lines.pop();
  return lines;
}
