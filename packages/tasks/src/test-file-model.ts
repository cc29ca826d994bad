import { firstLine, lastCodeLine, namedChildrenOf, parsePythonText } from '@repocod/python';
import type { Node, Parser } from 'web-tree-sitter';
import type { TestFileModel } from './test-removal.js';

/**
 * Parses a test file into what test removal needs: its functions with their spans (from the
 * shared extractor) and, for each class, the spans of its body's statements (comments are not
 * statements: a class left with only comments needs its `pass`).
 */
export function testFileModel(parser: Parser, file: string, text: string): TestFileModel {
  const parsed = parsePythonText(parser, text, file);
  try {
    const classBodies = new Map<string, { start: number; end: number }[]>();
    const classBases = new Map<string, string[]>();
    collectClasses(parsed.tree.rootNode, '', classBodies, classBases);
    const blocks: { line: number; statements: { start: number; end: number }[] }[] = [];
    collectBlocks(parsed.tree.rootNode, blocks);
    return { file, text, functions: parsed.functions, classBodies, classBases, blocks };
  } finally {
    parsed.tree.delete();
  }
}

/**
 * Classes at module level and nested in classes (where pytest collects tests), by qualified name,
 * with their bases as written (`metaclass=` and other keywords left out).
 */
function collectClasses(
  container: Node,
  prefix: string,
  found: Map<string, { start: number; end: number }[]>,
  bases: Map<string, string[]>,
): void {
  for (const statement of namedChildrenOf(container)) {
    const definition =
      statement.type === 'decorated_definition' ? statement.childForFieldName('definition') : statement;
    if (definition?.type !== 'class_definition') continue;
    const name = definition.childForFieldName('name')?.text ?? '';
    const body = definition.childForFieldName('body');
    if (body === null) continue;
    const qualname = `${prefix}${name}`;
    found.set(
      qualname,
      namedChildrenOf(body)
        .filter((child) => child.type !== 'comment')
        .map((child) => ({ start: firstLine(child), end: lastCodeLine(child) })),
    );
    const superclasses = definition.childForFieldName('superclasses');
    bases.set(
      qualname,
      superclasses === null
        ? []
        : namedChildrenOf(superclasses)
            .filter((base) => base.type === 'identifier' || base.type === 'attribute')
            .map((base) => base.text),
    );
    collectClasses(body, `${qualname}.`, found, bases);
  }
}

const FUNCTION_TYPES: ReadonlySet<string> = new Set(['function_definition', 'lambda']);

/**
 * Every statement block outside functions that is not a class body (classes have theirs in
 * classBodies): the branches of `if`/`elif`/`else`, `try`/`except`/`finally`, `with`, `for` and
 * `while`, at module level or in a class, each with its statements (comments left out).
 */
function collectBlocks(node: Node, found: { line: number; statements: { start: number; end: number }[] }[]): void {
  for (const child of namedChildrenOf(node)) {
    if (FUNCTION_TYPES.has(child.type)) continue;
    if (child.type === 'decorated_definition') {
      const definition = child.childForFieldName('definition');
      if (definition?.type === 'class_definition')
        collectBlocks(definition.childForFieldName('body') ?? definition, found);
      continue;
    }
    if (child.type === 'class_definition') {
      const body = child.childForFieldName('body');
      if (body !== null) collectBlocks(body, found);
      continue;
    }
    if (child.type === 'block' && node.type !== 'class_definition') {
      found.push({
        line: firstLine(node),
        statements: namedChildrenOf(child)
          .filter((statement) => statement.type !== 'comment')
          .map((statement) => ({ start: firstLine(statement), end: lastCodeLine(statement) })),
      });
    }
    collectBlocks(child, found);
  }
}
