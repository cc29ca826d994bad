import type { FunctionKind, FunctionRecord, LineSpan } from '@repocod/core';
import type { Node } from 'web-tree-sitter';
import { findDocstring } from './docstring.js';
import { sliceLines } from './source-text.js';
import { childrenOf, firstLine, lastCodeLine, lastLine, namedChildrenOf } from './syntax-nodes.js';

/** Statements that hold other statements; a `def` can only appear under these. */
const STATEMENT_CONTAINERS = new Set([
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

const PARAMETER_NODES = new Set([
  'identifier',
  'typed_parameter',
  'default_parameter',
  'typed_default_parameter',
  'list_splat_pattern',
  'dictionary_splat_pattern',
  'tuple_pattern',
]);

const PROPERTY_DECORATOR = /^(?:(?:functools\.)?cached_property|(?:abc\.)?abstractproperty|property|[\w.]+\.(?:setter|getter|deleter))$/;

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
    } else if (STATEMENT_CONTAINERS.has(statement.type)) {
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
    visitStatements(body, { qualnamePrefix: `${qualname}.`, className: qualname, inFunction: scope.inFunction }, input, found);
    return;
  }
  const decorators = decoratorNodes.map((decorator) => decorator.text.replace(/^@\s*/, '').trim());
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
  const docstringSpan: LineSpan | null = docstring === null ? null : { start: firstLine(docstring), end: lastLine(docstring) };
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
    parameterCount: parameters === null ? 0 : namedChildrenOf(parameters).filter((p) => PARAMETER_NODES.has(p.type)).length,
  };
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
 * problem is.
 */
export function syntaxErrorLines(root: Node): number[] {
  if (!root.hasError) return [];
  const lines = new Set<number>();
  const cursor = root.walk();
  // Returns whether the subtree at the cursor holds an error node; records the innermost ones.
  const visit = (): boolean => {
    const node = cursor.currentNode;
    if (node.isMissing) {
      lines.add(firstLine(node));
      return true;
    }
    if (!node.hasError) return false;
    let inner = false;
    if (cursor.gotoFirstChild()) {
      do inner = visit() || inner;
      while (cursor.gotoNextSibling());
      cursor.gotoParent();
    }
    if (node.isError && !inner) lines.add(firstLine(node));
    return inner || node.isError;
  };
  visit();
  cursor.delete();
  return [...lines].sort((a, b) => a - b);
}
