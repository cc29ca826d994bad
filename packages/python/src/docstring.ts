import type { Node } from 'web-tree-sitter';
import { literalPrefix } from './syntax-kinds.js';
import { childrenOf, namedChildrenOf } from './syntax-nodes.js';

/**
 * The docstring literal of a body block, with Python's own rule: the first statement is an expression
 * that is a plain string constant. Prefixes r/u (any case) keep it a docstring; an f-string is a
 * JoinedStr and bytes are not `str`, so neither is one. Implicitly concatenated literals and a
 * parenthesised literal are one Constant in Python's AST, so they count.
 */
export function findDocstring(body: Node): Node | null {
  const first = namedChildrenOf(body).find((child) => child.type !== 'comment');
  if (first === undefined || first.type !== 'expression_statement' || codeChildren(first).length !== 1) return null;
  let literal: Node | undefined = codeChildren(first)[0];
  while (literal !== undefined && literal.type === 'parenthesized_expression') {
    const inner = codeChildren(literal);
    literal = inner.length === 1 ? inner[0] : undefined;
  }
  if (literal === undefined) return null;
  if (literal.type === 'string') return isTextLiteral(literal) ? literal : null;
  if (literal.type === 'concatenated_string') {
    return codeChildren(literal).every((part) => part.type === 'string' && isTextLiteral(part)) ? literal : null;
  }
  return null;
}

/** Named children that are code: comments may sit anywhere inside brackets and between literals. */
function codeChildren(node: Node): Node[] {
  return namedChildrenOf(node).filter((child) => child.type !== 'comment');
}

function isTextLiteral(stringNode: Node): boolean {
  const start = childrenOf(stringNode).find((child) => child.type === 'string_start');
  return !/[fFbBtT]/.test(literalPrefix(start?.text ?? ''));
}
