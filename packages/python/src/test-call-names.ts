import type { Node } from 'web-tree-sitter';
import { namedChildrenOf } from './syntax-nodes.js';

/** What the test functions of a module name: the callees of their calls, and the attributes they read. */
export interface TestReferences {
  readonly calls: Set<string>;
  /** `obj.name` anywhere in a test body, called or not: how a test reaches a property. */
  readonly attributes: Set<string>;
}

/**
 * The names a test module's test functions call, as REPOCOD's static analysis of its targets reads them
 * ("we use tree-sitter to parse the test functions and collect the functions that are invoked"). Test
 * functions are those pytest collects by default: a `test*` function at module level, or a `test*`
 * method of a `Test*` class (nested classes included) or of a unittest `…TestCase` subclass, whatever
 * its name (more-itertools' `ChunkedTests(TestCase)`; a subclass of a project's own base is missed).
 * In their whole body, nested functions and lambdas too, each call gives its callee's last name:
 * `f(x)` → `f`, `obj.m(x)` → `m`, `Cls(x)` → `Cls` (whose `__init__` it runs). A name says nothing of
 * which function it resolves to: a candidate mode that uses these names matches a function by its own
 * name (a class's for `__init__`).
 */
export function testCallNames(root: Node): Set<string> {
  return testReferences(root).calls;
}

/** testCallNames, and the attribute names the same bodies read (see TestReferences). */
export function testReferences(root: Node): TestReferences {
  const references: TestReferences = { calls: new Set(), attributes: new Set() };
  for (const test of testFunctions(root, false)) collectReferences(test, references);
  return references;
}

function testFunctions(scope: Node, inTestClass: boolean): Node[] {
  const found: Node[] = [];
  const body = scope.type === 'module' ? scope : scope.childForFieldName('body');
  if (body === null) return found;
  for (const child of namedChildrenOf(body)) {
    const definition = child.type === 'decorated_definition' ? child.childForFieldName('definition') : child;
    if (definition === null) continue;
    const name = definition.childForFieldName('name')?.text ?? '';
    if (definition.type === 'function_definition' && name.startsWith('test')) found.push(definition);
    else if (definition.type === 'class_definition' && isTestClass(definition, name))
      found.push(...testFunctions(definition, true));
  }
  // A module-level function is collected anywhere; a method only in a Test* class (the scope given).
  return scope.type === 'module' || inTestClass ? found : [];
}

/** pytest's `Test*` classes, and unittest's: a base written `TestCase`, `unittest.TestCase`, `…TestCase`. */
function isTestClass(definition: Node, name: string): boolean {
  if (name.startsWith('Test')) return true;
  const bases = definition.childForFieldName('superclasses');
  return bases !== null && namedChildrenOf(bases).some((base) => /(^|\.)\w*TestCase$/.test(base.text));
}

function collectReferences(node: Node, { calls, attributes }: TestReferences): void {
  // An explicit stack: call chains nest deep in generated test modules.
  const stack: Node[] = [node];
  for (let current = stack.pop(); current !== undefined; current = stack.pop()) {
    if (current.type === 'call') {
      const callee = current.childForFieldName('function');
      const name =
        callee?.type === 'identifier'
          ? callee.text
          : callee?.type === 'attribute'
            ? callee.childForFieldName('attribute')?.text
            : undefined;
      if (name !== undefined) calls.add(name);
    } else if (current.type === 'attribute') {
      const attribute = current.childForFieldName('attribute')?.text;
      if (attribute !== undefined) attributes.add(attribute);
    }
    stack.push(...namedChildrenOf(current));
  }
}
