/** How two texts agree: byte for byte, only once whitespace is normalised, or not at all. */
export type TextAgreement = 'exact' | 'whitespace' | 'differs';

/**
 * Whitespace-normalised: every run of whitespace one space, ends trimmed. REPOCOD's texts come from
 * tree-sitter nodes, whose first line starts at `def` without the indentation the other lines keep, and
 * from JSON that may have lost a final newline; this is the comparison that forgives exactly that.
 */
export function normaliseWhitespace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

export function textAgreement(ours: string, theirs: string): TextAgreement {
  if (ours === theirs) return 'exact';
  return normaliseWhitespace(ours) === normaliseWhitespace(theirs) ? 'whitespace' : 'differs';
}

/**
 * A short line diff for a person: the first line where the texts differ (trailing whitespace aside),
 * with the next lines of each side, at most `context` of them.
 */
export function shortDifference(ours: string, theirs: string, context = 3): string {
  const left = ours.split('\n').map((line) => line.trimEnd());
  const right = theirs.split('\n').map((line) => line.trimEnd());
  let first = 0;
  while (first < left.length && first < right.length && left[first] === right[first]) first++;
  if (first === left.length && first === right.length) return 'the texts differ in whitespace only';
  const side = (lines: string[], marker: string): string[] => {
    const shown = lines.slice(first, first + context).map((line) => `${marker} ${line}`);
    if (shown.length === 0) shown.push(`${marker} (ends at line ${lines.length})`);
    else if (lines.length > first + context) shown.push(`${marker} … ${lines.length - first - context} more line(s)`);
    return shown;
  };
  return [`first difference at line ${first + 1}:`, ...side(left, '- ours  '), ...side(right, '+ theirs')].join('\n');
}
