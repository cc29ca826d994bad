import type { Node } from 'web-tree-sitter';

/** Non-null children; web-tree-sitter types them as nullable though a parsed tree has none missing. */
export function childrenOf(node: Node): Node[] {
  return node.children.filter((child): child is Node => child !== null);
}

export function namedChildrenOf(node: Node): Node[] {
  return node.namedChildren.filter((child): child is Node => child !== null);
}

/** 1-based line of a node's first character. */
export function firstLine(node: Node): number {
  return node.startPosition.row + 1;
}

/**
 * 1-based line of a node's last character. A node that ends at column 0 ends with a line break, so
 * its last character is on the line before.
 */
export function lastLine(node: Node): number {
  const end = node.endPosition;
  return end.column === 0 && end.row > node.startPosition.row ? end.row : end.row + 1;
}

/**
 * Last line of real code under a node, as Python's `end_lineno` counts it: tree-sitter lets a block
 * swallow the comments that follow its last statement, Python's AST does not.
 */
export function lastCodeLine(node: Node): number {
  // A loop down the last children rather than recursion: right-nested expressions run deep.
  let current = node;
  descend: for (;;) {
    for (let index = current.childCount - 1; index >= 0; index--) {
      const child = current.child(index);
      if (child === null || child.type === 'comment' || child.startIndex === child.endIndex) continue;
      current = child;
      continue descend;
    }
    return lastLine(current);
  }
}
