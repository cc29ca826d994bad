import { firstLine, lastCodeLine, namedChildrenOf } from '@repocod/python';
import type { Node } from 'web-tree-sitter';
import { importBindings, readFromImport } from './import-syntax.js';
import type { DefinitionSite, ImportBinding, ImportSource } from './module-summary.js';
import { attributeChain, boundNames, chainOf, literalStrings } from './name-syntax.js';
import type { RawRoot } from './scope-tree.js';
import { Scope } from './scope-tree.js';

/** Methods that receive the class without a decorator: `__new__` is a static method taking `cls`. */
const IMPLICIT_CLASS_RECEIVERS = new Set(['__new__', '__init_subclass__', '__class_getitem__']);
const STATIC_DECORATORS = new Set(['staticmethod', 'builtins.staticmethod']);
const CLASS_DECORATORS = new Set(['classmethod', 'builtins.classmethod']);
/** Target shapes whose named children are targets too (`a, (b, *c) = …`). */
const TARGET_CONTAINERS = new Set([
  'pattern_list',
  'tuple_pattern',
  'list_pattern',
  'tuple',
  'list',
  'expression_list',
  'parenthesized_expression',
  'as_pattern_target',
  'list_splat_pattern',
  'list_splat',
]);

type WorkItem = readonly [Node, Scope];

/** The visit method of one node kind. */
type VisitMethod = (this: ScopeVisitor, node: Node, scope: Scope) => void;

/**
 * Python's symbol-table pass, reduced to what the context classifier needs: one visitor method per
 * node kind that binds names or opens a scope; every other node is walked for its children. The walk
 * uses an explicit stack because expressions (long `a + b + …` chains) can nest thousands deep.
 * Nodes are visited in source order (depth first), so "the last definition wins" means the last one
 * in the file.
 */
export class ScopeVisitor {
  readonly module: Scope;
  readonly starImports: ImportSource[] = [];
  exportedNames: string[] | null = null;
  private exportsComputed = false;
  readonly classScopes: Scope[] = [];
  readonly functionScopes: Scope[] = [];
  private readonly stack: WorkItem[] = [];
  /** What the node being visited asks to visit next, in source order. */
  private readonly batch: WorkItem[] = [];

  /** The node kinds with a visit method of their own; a node of any other kind is walked for its children. */
  private static readonly visits: ReadonlyMap<string, VisitMethod> = new Map<string, VisitMethod>([
    ['identifier', ScopeVisitor.prototype.visitIdentifier],
    ['attribute', ScopeVisitor.prototype.visitAttribute],
    ['dotted_name', ScopeVisitor.prototype.visitDottedName],
    ['call', ScopeVisitor.prototype.visitCall],
    ['keyword_argument', ScopeVisitor.prototype.visitKeywordArgument],
    ['string', ScopeVisitor.prototype.visitString],
    ['comment', ScopeVisitor.prototype.skip],
    ['future_import_statement', ScopeVisitor.prototype.skip],
    ['decorated_definition', ScopeVisitor.prototype.visitDecoratedDefinition],
    ['function_definition', ScopeVisitor.prototype.visitFunctionDefinition],
    ['class_definition', ScopeVisitor.prototype.visitClassDefinition],
    ['lambda', ScopeVisitor.prototype.visitLambda],
    ['list_comprehension', ScopeVisitor.prototype.visitComprehension],
    ['set_comprehension', ScopeVisitor.prototype.visitComprehension],
    ['dictionary_comprehension', ScopeVisitor.prototype.visitComprehension],
    ['generator_expression', ScopeVisitor.prototype.visitComprehension],
    ['import_statement', ScopeVisitor.prototype.visitImport],
    ['import_from_statement', ScopeVisitor.prototype.visitImportFrom],
    ['global_statement', ScopeVisitor.prototype.visitGlobal],
    ['nonlocal_statement', ScopeVisitor.prototype.visitNonlocal],
    ['assignment', ScopeVisitor.prototype.visitAssignment],
    ['augmented_assignment', ScopeVisitor.prototype.visitAssignment],
    ['for_statement', ScopeVisitor.prototype.visitFor],
    ['as_pattern', ScopeVisitor.prototype.visitAsPattern],
    ['named_expression', ScopeVisitor.prototype.visitNamedExpression],
    ['delete_statement', ScopeVisitor.prototype.visitDelete],
    ['case_clause', ScopeVisitor.prototype.visitCaseClause],
  ]);

  constructor(private readonly file: string) {
    this.module = new Scope('module', null, '');
  }

  run(root: Node): void {
    this.pushChildren(root, this.module);
    this.flush();
    for (let item = this.stack.pop(); item !== undefined; item = this.stack.pop()) {
      this.visit(item[0], item[1]);
      this.flush();
    }
  }

  private push(node: Node | null | undefined, scope: Scope): void {
    if (node !== null && node !== undefined) this.batch.push([node, scope]);
  }

  private pushChildren(node: Node, scope: Scope): void {
    for (const child of namedChildrenOf(node)) this.push(child, scope);
  }

  /** A batch goes onto the stack reversed, so that it is popped in source order. */
  private flush(): void {
    for (let index = this.batch.length - 1; index >= 0; index--) {
      const item = this.batch[index];
      if (item !== undefined) this.stack.push(item);
    }
    this.batch.length = 0;
  }

  private visit(node: Node, scope: Scope): void {
    // A broken statement may hold anything; inventing bindings or uses from it helps nobody.
    if (node.isError || node.isMissing) return;
    const visitKind = ScopeVisitor.visits.get(node.type) ?? ScopeVisitor.prototype.pushChildren;
    visitKind.call(this, node, scope);
  }

  /** Comments and `from __future__ import …` neither bind nor use a name. */
  private skip(): void {}

  private reference(node: Node, scope: Scope, root: RawRoot, rootText: string, attributes: readonly string[]): void {
    scope.references.push({ line: firstLine(node), rootText, attributes, root });
  }

  private visitIdentifier(node: Node, scope: Scope): void {
    this.reference(node, scope, { kind: 'name', name: node.text }, node.text, []);
  }

  /** `a.b.c` is one reference (root `a`, attributes `b`, `c`): how far it resolves is decided later. */
  private visitAttribute(node: Node, scope: Scope): void {
    const chain = attributeChain(node);
    if (chain.kind === 'broken') return this.pushChildren(chain.node, scope);
    const { base, attributes } = chain;
    if (base.type === 'identifier')
      return this.reference(node, scope, { kind: 'name', name: base.text }, base.text, attributes);
    const receiver = base.type === 'call' ? receiverOfCall(base) : null;
    if (receiver !== null) return this.reference(node, scope, receiver, base.text.replace(/\s+/g, ' '), attributes);
    this.push(base, scope);
  }

  /** A call's callee is recorded; its loads (the callee's root, the arguments) are visited as any expression's. */
  private visitCall(node: Node, scope: Scope): void {
    this.recordCall(node, scope);
    this.pushChildren(node, scope);
  }

  /**
   * Records the call's callee for the call-based level modes.
   * `f(...)`, `a.b.f(...)`, `self.m(...)`, `super().m(...)`, `type(self).m(...)` and `C(...).m(...)`
   * are kept; a callee that is a subscript, a call's result called again or a literal is not.
   */
  private recordCall(node: Node, scope: Scope): void {
    const called = node.childForFieldName('function');
    if (called === null) return;
    const chain = attributeChain(called);
    if (chain.kind === 'broken') return;
    const { base, attributes } = chain;
    const line = firstLine(node);
    const dotted = attributes.map((attribute) => `.${attribute}`).join('');
    if (base.type === 'identifier') {
      const root: RawRoot = { kind: 'name', name: base.text };
      scope.calls.push({ line, rootText: base.text, attributes, root, callee: base.text + dotted, onInstance: false });
      return;
    }
    if (base.type !== 'call' || attributes.length === 0) return;
    const inner = base.childForFieldName('function');
    if (inner?.type !== 'identifier') return;
    // `super().m(...)`, `type(self).m(...)`; else `C(...).m(...)`, a method of an instance made on the spot.
    const receiver = receiverOfCall(base);
    const root: RawRoot = receiver ?? { kind: 'name', name: inner.text };
    const onInstance = receiver === null;
    const rootText = onInstance ? inner.text : base.text.replace(/\s+/g, ' ');
    const callee = `${onInstance ? `${inner.text}(...)` : rootText}${dotted}`;
    scope.calls.push({ line, rootText, attributes, root, callee, onInstance });
  }

  /** A keyword argument's name binds nothing and loads nothing; its value is an expression. */
  private visitKeywordArgument(node: Node, scope: Scope): void {
    this.push(node.childForFieldName('value'), scope);
  }

  /** Only an f-string's interpolations hold code. */
  private visitString(node: Node, scope: Scope): void {
    for (const child of namedChildrenOf(node)) if (child.type === 'interpolation') this.push(child, scope);
  }

  /** Outside imports a dotted name is a value pattern of a `case` (`Color.RED`): a load. */
  private visitDottedName(node: Node, scope: Scope): void {
    const parts = namedChildrenOf(node).filter((child) => child.type === 'identifier');
    const [root, ...rest] = parts;
    if (root !== undefined)
      this.reference(
        node,
        scope,
        { kind: 'name', name: root.text },
        root.text,
        rest.map((part) => part.text),
      );
  }

  private visitDecoratedDefinition(node: Node, scope: Scope): void {
    const decorators: string[] = [];
    for (const decorator of namedChildrenOf(node).filter((child) => child.type === 'decorator')) {
      const expression = namedChildrenOf(decorator).find((child) => child.type !== 'comment');
      if (expression === undefined) continue;
      decorators.push(expression.text);
      this.push(expression, scope);
    }
    const definition = node.childForFieldName('definition');
    if (definition?.type === 'function_definition') this.defineFunction(definition, decorators, scope);
    else if (definition?.type === 'class_definition') this.visitClassDefinition(definition, scope);
  }

  private visitFunctionDefinition(node: Node, scope: Scope): void {
    this.defineFunction(node, [], scope);
  }

  private defineFunction(node: Node, decorators: readonly string[], scope: Scope): void {
    const name = node.childForFieldName('name')?.text;
    const body = node.childForFieldName('body');
    if (name === undefined || body === null) return;
    const qualname = scope.qualnameOf(name);
    const line = firstLine(node);
    // A property's setter or deleter is a second `def` of the same name; `self.prop` means the getter.
    const accessor = decorators.some(
      (decorator) => /\.(?:setter|getter|deleter)$/.test(decorator) && decorator.startsWith(`${name}.`),
    );
    this.bindDefinition(
      scope,
      name,
      { file: this.file, qualname, kind: scope.kind === 'class' ? 'method' : 'function', line },
      accessor,
    );

    const inner = new Scope('function', scope, qualname);
    inner.line = line;
    inner.endLine = lastCodeLine(body);
    const parameters = node.childForFieldName('parameters');
    if (parameters !== null) inner.firstParameter = this.bindParameters(parameters, scope, inner);
    if (
      scope.kind === 'class' &&
      inner.firstParameter !== null &&
      !decorators.some((decorator) => STATIC_DECORATORS.has(decorator))
    ) {
      const classReceiver =
        decorators.some((decorator) => CLASS_DECORATORS.has(decorator)) || IMPLICIT_CLASS_RECEIVERS.has(name);
      inner.receiver = classReceiver ? 'cls' : 'self';
    }
    this.push(node.childForFieldName('return_type'), scope);
    this.push(body, inner);
    this.functionScopes.push(inner);
  }

  /**
   * Binds parameter names in the function's scope; defaults and annotations are evaluated where the
   * `def` stands, so they are visited in the outer scope. Returns the first positional parameter.
   */
  private bindParameters(parameters: Node, outer: Scope, inner: Scope): string | null {
    let first: string | null = null;
    namedChildrenOf(parameters).forEach((parameter, index) => {
      let nameNode: Node | null = null;
      switch (parameter.type) {
        case 'identifier':
          nameNode = parameter;
          break;
        case 'typed_parameter':
          nameNode = namedChildrenOf(parameter).find((child) => child.type !== 'type') ?? null;
          this.push(parameter.childForFieldName('type'), outer);
          break;
        case 'default_parameter':
        case 'typed_default_parameter':
          nameNode = parameter.childForFieldName('name');
          this.push(parameter.childForFieldName('type'), outer);
          this.push(parameter.childForFieldName('value'), outer);
          break;
        default:
          nameNode = parameter;
      }
      if (nameNode === null) return;
      if (index === 0 && nameNode.type === 'identifier') first = nameNode.text;
      for (const name of boundNames(nameNode)) inner.binding(name);
    });
    return first;
  }

  private visitClassDefinition(node: Node, scope: Scope): void {
    const name = node.childForFieldName('name')?.text;
    const body = node.childForFieldName('body');
    if (name === undefined || body === null) return;
    const qualname = scope.qualnameOf(name);
    const line = firstLine(node);
    this.bindDefinition(scope, name, { file: this.file, qualname, kind: 'class', line }, false);
    const inner = new Scope('class', scope, qualname);
    inner.line = line;
    inner.endLine = lastCodeLine(body);
    const superclasses = node.childForFieldName('superclasses');
    for (const argument of superclasses === null ? [] : namedChildrenOf(superclasses)) {
      if (argument.type === 'keyword_argument') {
        this.push(argument.childForFieldName('value'), scope);
        continue;
      }
      if (argument.type === 'comment') continue;
      // `Generic[T]` and `Base[int]` derive from the subscripted class.
      const base = chainOf(argument.type === 'subscript' ? argument.childForFieldName('value') : argument);
      if (base !== null) inner.bases.push(base);
      this.push(argument, scope);
    }
    this.push(body, inner);
    this.classScopes.push(inner);
  }

  private visitLambda(node: Node, scope: Scope): void {
    const inner = new Scope('lambda', scope, scope.qualname);
    const parameters = node.childForFieldName('parameters');
    if (parameters !== null) this.bindParameters(parameters, scope, inner);
    this.push(node.childForFieldName('body'), inner);
  }

  /** The first iterable is evaluated in the enclosing scope; everything else in the comprehension's own. */
  private visitComprehension(node: Node, scope: Scope): void {
    const inner = new Scope('comprehension', scope, scope.qualname);
    let first = true;
    for (const child of namedChildrenOf(node)) {
      if (child.type !== 'for_in_clause') {
        this.push(child, inner);
        continue;
      }
      this.bindTarget(child.childForFieldName('left'), inner);
      for (const part of namedChildrenOf(child)) {
        if (part.id !== child.childForFieldName('left')?.id) this.push(part, first ? scope : inner);
      }
      first = false;
    }
  }

  private visitImport(node: Node, scope: Scope): void {
    for (const { name, binding } of importBindings(node)) this.bindImport(scope, name, binding);
  }

  private visitImportFrom(node: Node, scope: Scope): void {
    const statement = readFromImport(node);
    if (statement === null) return;
    if (statement.star) {
      // Only a module may star-import in Python 3; anywhere else it is a syntax error.
      if (scope.kind === 'module') this.starImports.push(statement.source);
      return;
    }
    for (const { name, binding } of statement.names) this.bindImport(scope, name, binding);
  }

  private visitAssignment(node: Node, scope: Scope): void {
    const left = node.childForFieldName('left');
    const right = node.childForFieldName('right');
    if (scope.kind === 'module' && left?.type === 'identifier' && left.text === '__all__')
      this.recordExports(node.type === 'augmented_assignment', right);
    this.bindTarget(left, scope);
    this.push(node.childForFieldName('type'), scope);
    this.push(right, scope);
  }

  private recordExports(extend: boolean, value: Node | null): void {
    const names = value === null ? null : literalStrings(value);
    if (names === null || this.exportsComputed) {
      this.exportsComputed = true;
      this.exportedNames = null;
      return;
    }
    this.exportedNames = extend ? [...(this.exportedNames ?? []), ...names] : names;
  }

  /** `with x as y` and `except E as e`: the value is a load, the alias a binding. */
  private visitAsPattern(node: Node, scope: Scope): void {
    const alias = node.childForFieldName('alias');
    for (const child of namedChildrenOf(node)) {
      if (child.id === alias?.id) this.bindTarget(child, scope);
      else this.push(child, scope);
    }
  }

  /** `:=` binds in the nearest scope that is not a comprehension (PEP 572). */
  private visitNamedExpression(node: Node, scope: Scope): void {
    let target = scope;
    while (target.kind === 'comprehension' && target.parent !== null) target = target.parent;
    const name = node.childForFieldName('name');
    if (name?.type === 'identifier') target.binding(name.text);
    this.push(node.childForFieldName('value'), scope);
  }

  private visitDelete(node: Node, scope: Scope): void {
    for (const child of namedChildrenOf(node)) {
      if (child.type === 'expression_list') this.visitDelete(child, scope);
      else if (child.type === 'identifier') scope.binding(child.text);
      else this.push(child, scope);
    }
  }

  /** Match patterns: bare names capture (bind), dotted names and class heads are loads. */
  private visitPattern(node: Node, scope: Scope): void {
    switch (node.type) {
      case 'dotted_name': {
        const parts = namedChildrenOf(node);
        if (parts.length === 1 && parts[0] !== undefined) scope.binding(parts[0].text);
        else this.visitDottedName(node, scope);
        return;
      }
      case 'identifier':
        if (node.text !== '_') scope.binding(node.text);
        return;
      case 'class_pattern':
        // biome-ignore lint/suspicious/useIterableCallbackReturn: the visits return nothing
        namedChildrenOf(node).forEach((child, index) =>
          index === 0 && child.type === 'dotted_name'
            ? this.visitDottedName(child, scope)
            : this.visitPattern(child, scope),
        );
        return;
      case 'keyword_pattern':
        namedChildrenOf(node).forEach((child, index) => {
          if (index > 0) this.visitPattern(child, scope);
        });
        return;
      case 'case_pattern':
      case 'union_pattern':
      case 'list_pattern':
      case 'tuple_pattern':
      case 'dict_pattern':
      case 'splat_pattern':
      case 'as_pattern':
        for (const child of namedChildrenOf(node)) this.visitPattern(child, scope);
        return;
      default:
        this.push(node, scope);
    }
  }

  private bindTarget(node: Node | null, scope: Scope): void {
    if (node === null) return;
    if (node.type === 'identifier') scope.binding(node.text);
    else if (TARGET_CONTAINERS.has(node.type)) for (const child of namedChildrenOf(node)) this.bindTarget(child, scope);
    else this.push(node, scope);
  }

  private bindDefinition(scope: Scope, name: string, site: DefinitionSite, accessor: boolean): void {
    const binding = scope.binding(name);
    if (binding.definition === null || !accessor) binding.definition = site;
  }

  private bindImport(scope: Scope, name: string, target: ImportBinding): void {
    scope.binding(name).imports.push(target);
  }

  private visitGlobal(node: Node, scope: Scope): void {
    for (const name of namedChildrenOf(node)) if (name.type === 'identifier') scope.globals.add(name.text);
  }

  private visitNonlocal(node: Node, scope: Scope): void {
    for (const name of namedChildrenOf(node)) if (name.type === 'identifier') scope.nonlocals.add(name.text);
  }

  /** The loop target is a binding; the iterable, the body and the `else` are visited as they stand. */
  private visitFor(node: Node, scope: Scope): void {
    const left = node.childForFieldName('left');
    this.bindTarget(left, scope);
    for (const child of namedChildrenOf(node)) if (child.id !== left?.id) this.push(child, scope);
  }

  /** A `case` pattern binds its captures; the guard and the body are visited as they stand. */
  private visitCaseClause(node: Node, scope: Scope): void {
    for (const child of namedChildrenOf(node)) {
      if (child.type === 'case_pattern') this.visitPattern(child, scope);
      else this.push(child, scope);
    }
  }
}

/**
 * A call whose result an attribute is looked up on, when it stands for a receiver: `super()` or
 * `super(C, self)` (its arguments name the class and the instance: the idiom, not a use of the class),
 * `type(x)`. Null for any other call.
 */
function receiverOfCall(call: Node): RawRoot | null {
  const callee = call.childForFieldName('function');
  if (callee?.type !== 'identifier') return null;
  const argumentList = call.childForFieldName('arguments');
  const args = argumentList === null ? [] : namedChildrenOf(argumentList).filter((child) => child.type !== 'comment');
  if (callee.text === 'super') return { kind: 'super', classArgument: args[0] === undefined ? null : chainOf(args[0]) };
  if (callee.text === 'type' && args.length === 1 && args[0]?.type === 'identifier')
    return { kind: 'type-of', name: args[0].text };
  return null;
}
