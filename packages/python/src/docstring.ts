import type { Node } from 'web-tree-sitter';
import { childrenOf, namedChildrenOf } from './syntax-nodes.js';

/**
 * The docstring literal of a body block, with Python's own rule: the first statement is an expression
 * that is a plain string constant. Prefixes r/u (any case) keep it a docstring; an f-string is a
 * JoinedStr and bytes are not `str`, so neither is one. Implicitly concatenated literals and a
 * parenthesised literal are one Constant in Python's AST, so they count.
 */
export function findDocstring(body: Node): Node | null {
  const first = namedChildrenOf(body).find((child) => child.type !== 'comment');
  if (first === undefined || first.type !== 'expression_statement' || first.namedChildCount !== 1) return null;
  let literal = first.namedChild(0);
  while (literal !== null && literal.type === 'parenthesized_expression' && literal.namedChildCount === 1) {
    literal = literal.namedChild(0);
  }
  if (literal === null) return null;
  if (literal.type === 'string') return isTextLiteral(literal) ? literal : null;
  if (literal.type === 'concatenated_string') {
    return namedChildrenOf(literal).every((part) => part.type === 'string' && isTextLiteral(part)) ? literal : null;
  }
  return null;
}

function isTextLiteral(stringNode: Node): boolean {
  const start = childrenOf(stringNode).find((child) => child.type === 'string_start');
  const prefix = (start?.text ?? '').replace(/['"]+$/, '');
  return !/[fFbBtT]/.test(prefix);
}
