/** Statements that hold other statements: a `def` or `class` can only stand under these. */
export const STATEMENT_CONTAINER_TYPES: ReadonlySet<string> = new Set([
  'block',
  'if_statement',
  'elif_clause',
  'else_clause',
  'for_statement',
  'while_statement',
  'try_statement',
  'except_clause',
  'except_group_clause',
  'finally_clause',
  'with_statement',
  'match_statement',
  'case_clause',
]);

/** The children of a `parameters` node that are parameters (not `/` or `*` separators). */
export const PARAMETER_TYPES: ReadonlySet<string> = new Set([
  'identifier',
  'typed_parameter',
  'default_parameter',
  'typed_default_parameter',
  'list_splat_pattern',
  'dictionary_splat_pattern',
  'tuple_pattern',
]);

/** The letters before a string literal's opening quote (`rb`, `f`, `u`, …). */
export function literalPrefix(literal: string): string {
  let end = 0;
  while (end < literal.length && literal[end] !== '"' && literal[end] !== "'") end++;
  return literal.slice(0, end);
}
