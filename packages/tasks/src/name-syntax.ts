import { namedChildrenOf } from '@repocod/python';
import type { Node } from 'web-tree-sitter';
import type { NameChain } from './module-summary.js';

/**
 * `a.b.c` taken apart: the node under the attributes (`a`) and the attribute names (`b`, `c`); or the
 * attribute node along the way that lacks its object or its name.
 */
export type AttributeChain =
  | { readonly kind: 'chain'; readonly base: Node; readonly attributes: string[] }
  | { readonly kind: 'broken'; readonly node: Node };

export function attributeChain(node: Node): AttributeChain {
  const attributes: string[] = [];
  let current = node;
  while (current.type === 'attribute') {
    const object = current.childForFieldName('object');
    const attribute = current.childForFieldName('attribute');
    if (object === null || attribute === null) return { kind: 'broken', node: current };
    attributes.unshift(attribute.text);
    current = object;
  }
  return { kind: 'chain', base: current, attributes };
}

/** `a` or `a.b.c` with a plain name at the root, else null. */
export function chainOf(node: Node | null): NameChain | null {
  const chain = node === null ? null : attributeChain(node);
  return chain?.kind === 'chain' && chain.base.type === 'identifier'
    ? { root: chain.base.text, attributes: chain.attributes }
    : null;
}

/** The names a parameter or target node binds (`*args` → args, `(a, b)` → a, b). */
export function boundNames(node: Node): string[] {
  if (node.type === 'identifier') return [node.text];
  return namedChildrenOf(node).flatMap((child) => (child.type === 'type' ? [] : boundNames(child)));
}

export function dottedText(node: Node): string {
  return namedChildrenOf(node)
    .filter((child) => child.type === 'identifier')
    .map((child) => child.text)
    .join('.');
}

/** The strings of a list or tuple of plain string literals; null for anything computed. */
export function literalStrings(node: Node): string[] | null {
  if (node.type !== 'list' && node.type !== 'tuple') return null;
  const names: string[] = [];
  for (const element of namedChildrenOf(node)) {
    if (element.type === 'comment') continue;
    if (element.type !== 'string') return null;
    const parts = namedChildrenOf(element);
    if (parts.some((part) => part.type === 'interpolation' || part.type === 'escape_sequence')) return null;
    names.push(
      parts
        .filter((part) => part.type === 'string_content')
        .map((part) => part.text)
        .join(''),
    );
  }
  return names;
}
