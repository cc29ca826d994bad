import type { FunctionKind, FunctionRecord, LineSpan } from '@repocod/core';
import type { Node } from 'web-tree-sitter';
import { findDocstring } from './docstring.js';
import { sliceLines } from './source-text.js';
import { PARAMETER_TYPES, STATEMENT_CONTAINER_TYPES } from './syntax-kinds.js';
import { childrenOf, firstLine, lastCodeLine, lastLine, namedChildrenOf } from './syntax-nodes.js';

const PROPERTY_DECORATOR =
  /^(?:(?:functools\.)?cached_property|(?:abc\.)?abstractproperty|property|[\w.]+\.(?:setter|getter|deleter))$/;

/** Where a definition stands: what Python's `__qualname__` would prefix it with. */
interface Scope {
  readonly qualnamePrefix: string;
  readonly className: string | null;
  readonly inFunction: boolean;
}

export interface ExtractionInput {
  readonly file: string;
  readonly lines: readonly string[];
  readonly isTestCode: boolean;
}

/**
 * Lists every function and method of a parsed module with its spans and REPOCOD slices.
 *
 * Syntax errors: a definition whose subtree holds an error (or that lies inside an ERROR node) is
 * left out, the functions that parse cleanly are kept; the caller reports the file with the error
 * lines. Keeping the clean ones loses nothing that is right and invents nothing that is wrong.
 */
export function extractFunctions(root: Node, input: ExtractionInput): FunctionRecord[] {
  const found: FunctionRecord[] = [];
  visitStatements(root, { qualnamePrefix: '', className: null, inFunction: false }, input, found);
  return found;
}

function visitStatements(container: Node, scope: Scope, input: ExtractionInput, found: FunctionRecord[]): void {
  for (const statement of namedChildrenOf(container)) {
    if (statement.isError) continue;
    if (statement.type === 'decorated_definition') {
      const definition = statement.childForFieldName('definition');
      const decorators = namedChildrenOf(statement).filter((child) => child.type === 'decorator');
      if (definition !== null) visitDefinition(definition, statement, decorators, scope, input, found);
    } else if (statement.type === 'function_definition' || statement.type === 'class_definition') {
      visitDefinition(statement, statement, [], scope, input, found);
    } else if (STATEMENT_CONTAINER_TYPES.has(statement.type)) {
      visitStatements(statement, scope, input, found);
    }
  }
}

function visitDefinition(
  definition: Node,
  outer: Node,
  decoratorNodes: readonly Node[],
  scope: Scope,
  input: ExtractionInput,
  found: FunctionRecord[],
): void {
  const name = definition.childForFieldName('name')?.text ?? '';
  const body = definition.childForFieldName('body');
  if (body === null) return;
  const qualname = scope.qualnamePrefix + name;
  if (definition.type === 'function_definition' && outer.hasError) return;
  if (definition.type === 'class_definition') {
    visitStatements(
      body,
      { qualnamePrefix: `${qualname}.`, className: qualname, inFunction: scope.inFunction },
      input,
      found,
    );
    return;
  }
  const decorators = decoratorNodes.map(decoratorExpression);
  found.push(describeFunction(definition, outer, body, name, qualname, decorators, scope, input));
  visitStatements(body, { qualnamePrefix: `${qualname}.<locals>.`, className: null, inFunction: true }, input, found);
}

function describeFunction(
  definition: Node,
  outer: Node,
  body: Node,
  name: string,
  qualname: string,
  decorators: readonly string[],
  scope: Scope,
  input: ExtractionInput,
): FunctionRecord {
  const isAsync = childrenOf(definition).some((child) => child.type === 'async');
  const defLine = firstLine(definition);
  const endLine = lastCodeLine(body);
  const colon = childrenOf(definition).findLast((child) => child.type === ':');
  const signatureSpan: LineSpan = { start: defLine, end: colon === undefined ? defLine : lastLine(colon) };
  const docstring = findDocstring(body);
  const docstringSpan: LineSpan | null =
    docstring === null ? null : { start: firstLine(docstring), end: lastLine(docstring) };
  const promptEnd = docstringSpan?.end ?? signatureSpan.end;
  const prompt = sliceLines(input.lines, defLine, promptEnd);
  const solution = sliceLines(input.lines, promptEnd + 1, endLine);
  const parameters = definition.childForFieldName('parameters');
  return {
    file: input.file,
    name,
    qualname,
    className: scope.className,
    nested: scope.inFunction,
    kind: kindOf(decorators, scope.className !== null, isAsync),
    isAsync,
    decorators,
    isTestCode: input.isTestCode,
    definitionSpan: { start: firstLine(outer), end: endLine },
    signatureSpan,
    docstringSpan,
    bodySpan: { start: firstLine(body), end: endLine },
    slices: { prompt, solution, full: prompt + solution },
    parameterCount:
      parameters === null ? 0 : namedChildrenOf(parameters).filter((p) => PARAMETER_TYPES.has(p.type)).length,
  };
}

/** The decorator's expression as written: without the `@` and without a trailing comment. */
function decoratorExpression(decorator: Node): string {
  const expression = namedChildrenOf(decorator).find((child) => child.type !== 'comment');
  return expression?.text ?? decorator.text.replace(/^@\s*/, '').trim();
}

function kindOf(decorators: readonly string[], isMethod: boolean, isAsync: boolean): FunctionKind {
  if (decorators.some((decorator) => PROPERTY_DECORATOR.test(decorator))) return 'property';
  if (decorators.includes('staticmethod')) return 'staticmethod';
  if (decorators.includes('classmethod')) return 'classmethod';
  if (isAsync) return 'async';
  return isMethod ? 'method' : 'function';
}

/**
 * 1-based lines of the innermost ERROR and MISSING nodes, for the report of a file that does not
 * parse. tree-sitter may wrap a whole file in one ERROR node; the innermost one is where the
 * problem is. When the tree has an error but no such node is visible (a MISSING token the cursor
 * does not show), the deepest node that holds the error is reported instead, so a file whose
 * functions were dropped for an error is never stored as clean.
 */
export function syntaxErrorLines(root: Node): number[] {
  if (!root.hasError) return [];
  const errors: Node[] = [];
  let deepest = root;
  const cursor = root.walk();
  try {
    // Iterative: the walk follows only subtrees that hold an error, but those can be deep.
    let more = true;
    while (more) {
      const node = cursor.currentNode;
      if (node.isError || node.isMissing) errors.push(node);
      if (node.hasError && node.startPosition.row >= deepest.startPosition.row) deepest = node;
      if (node.hasError && cursor.gotoFirstChild()) continue;
      while (!cursor.gotoNextSibling()) {
        if (!cursor.gotoParent()) {
          more = false;
          break;
        }
      }
    }
  } finally {
    cursor.delete();
  }
  const innermost = errors.filter(
    (outer) =>
      !errors.some(
        (inner) =>
          inner !== outer &&
          inner.startIndex >= outer.startIndex &&
          inner.endIndex <= outer.endIndex &&
          inner.id !== outer.id,
      ),
  );
  const lines = innermost.length > 0 ? innermost.map(firstLine) : [firstLine(deepest)];
  return [...new Set(lines)].sort((a, b) => a - b);
}
