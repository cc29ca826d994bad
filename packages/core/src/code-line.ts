/**
 * Whether a source line holds code: not blank and not only a comment. The rule is a line's own text, so a `#` line
 * inside a multi-line string counts as a comment; such lines are rare in a body after its docstring.
 */
export function isCodeLine(line: string): boolean {
  const text = line.trim();
  return text !== '' && !text.startsWith('#');
}
