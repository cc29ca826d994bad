import { firstLine, lastCodeLine, namedChildrenOf } from '@repocod/python';
import type { Node } from 'web-tree-sitter';
import type {
  BodyReference,
  CallOrigin,
  CallSite,
  ClassSummary,
  DefinitionSite,
  FunctionSummary,
  ImportBinding,
  ImportSource,
  ModuleSummary,
  NameChain,
  ReferenceOrigin,
  ScopeBinding,
} from './module-summary.js';

/** Decides which functions keep their body references (the others keep only their bindings). */
export type KeepReferences = (qualname: string, line: number) => boolean;

type ScopeKind = 'module' | 'class' | 'function' | 'lambda' | 'comprehension';

/** How a raw reference's root was written, before it is resolved against the scopes. */
type RawRoot =
  | { readonly kind: 'name'; readonly name: string }
  | { readonly kind: 'super'; readonly classArgument: NameChain | null }
  | { readonly kind: 'type-of'; readonly name: string };

interface RawReference {
  readonly line: number;
  readonly rootText: string;
  readonly attributes: readonly string[];
  readonly root: RawRoot;
}

/** A call as written, before its root is resolved against the scopes. */
interface RawCall extends RawReference {
  readonly callee: string;
  readonly onInstance: boolean;
}

interface MutableBinding {
  definition: DefinitionSite | null;
  readonly imports: ImportBinding[];
}

/** Methods that receive the class without a decorator: `__new__` is a static method taking `cls`. */
const IMPLICIT_CLASS_RECEIVERS = new Set(['__new__', '__init_subclass__', '__class_getitem__']);
const STATIC_DECORATORS = new Set(['staticmethod', 'builtins.staticmethod']);
const CLASS_DECORATORS = new Set(['classmethod', 'builtins.classmethod']);
const COMPREHENSIONS = new Set([
  'list_comprehension',
  'set_comprehension',
  'dictionary_comprehension',
  'generator_expression',
]);
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

class Scope {
  readonly bindings = new Map<string, MutableBinding>();
  readonly globals = new Set<string>();
  readonly nonlocals = new Set<string>();
  readonly references: RawReference[] = [];
  readonly calls: RawCall[] = [];
  readonly children: Scope[] = [];
  /** Function and class scopes: the `def`/`class` line and the last code line. */
  line = 0;
  endLine = 0;
  /** Function scopes: the first positional parameter and what it stands for in a method. */
  firstParameter: string | null = null;
  receiver: 'self' | 'cls' | null = null;
  /** Class scopes. */
  bases: NameChain[] = [];

  constructor(
    readonly kind: ScopeKind,
    readonly parent: Scope | null,
    readonly qualname: string,
  ) {
    parent?.children.push(this);
  }

  /** The qualname Python gives a `def`/`class` named `name` defined in this scope. */
  qualnameOf(name: string): string {
    if (this.kind === 'module') return name;
    return this.kind === 'class' ? `${this.qualname}.${name}` : `${this.qualname}.<locals>.${name}`;
  }

  binding(name: string): MutableBinding {
    let found = this.bindings.get(name);
    if (found === undefined) {
      found = { definition: null, imports: [] };
      this.bindings.set(name, found);
    }
    return found;
  }
}

type WorkItem = readonly [Node, Scope];

/**
 * Python's symbol-table pass, reduced to what the context classifier needs: one visitor method per
 * node kind that binds names or opens a scope; every other node is walked for its children. The walk
 * uses an explicit stack because expressions (long `a + b + …` chains) can nest thousands deep.
 * Nodes are visited in source order (depth first), so "the last definition wins" means the last one
 * in the file.
 */
class ScopeVisitor {
  readonly module: Scope;
  readonly starImports: ImportSource[] = [];
  exportedNames: string[] | null = null;
  private exportsComputed = false;
  readonly classScopes: Scope[] = [];
  readonly functionScopes: Scope[] = [];
  private readonly stack: WorkItem[] = [];
  /** What the node being visited asks to visit next, in source order. */
  private readonly batch: WorkItem[] = [];

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
    switch (node.type) {
      case 'identifier':
        return this.reference(node, scope, { kind: 'name', name: node.text }, node.text, []);
      case 'attribute':
        return this.visitAttribute(node, scope);
      case 'dotted_name':
        return this.visitDottedName(node, scope);
      case 'call':
        this.visitCall(node, scope);
        return this.pushChildren(node, scope);
      case 'keyword_argument':
        return this.push(node.childForFieldName('value'), scope);
      case 'string':
        for (const child of namedChildrenOf(node)) if (child.type === 'interpolation') this.push(child, scope);
        return;
      case 'comment':
      case 'future_import_statement':
        return;
      case 'decorated_definition':
        return this.visitDecoratedDefinition(node, scope);
      case 'function_definition':
        return this.visitFunction(node, [], scope);
      case 'class_definition':
        return this.visitClass(node, scope);
      case 'lambda':
        return this.visitLambda(node, scope);
      case 'import_statement':
        return this.visitImport(node, scope);
      case 'import_from_statement':
        return this.visitImportFrom(node, scope);
      case 'global_statement':
        for (const name of namedChildrenOf(node)) if (name.type === 'identifier') scope.globals.add(name.text);
        return;
      case 'nonlocal_statement':
        for (const name of namedChildrenOf(node)) if (name.type === 'identifier') scope.nonlocals.add(name.text);
        return;
      case 'assignment':
      case 'augmented_assignment':
        return this.visitAssignment(node, scope);
      case 'for_statement':
        this.bindTarget(node.childForFieldName('left'), scope);
        for (const child of namedChildrenOf(node))
          if (child.id !== node.childForFieldName('left')?.id) this.push(child, scope);
        return;
      case 'as_pattern':
        return this.visitAsPattern(node, scope);
      case 'named_expression':
        return this.visitNamedExpression(node, scope);
      case 'delete_statement':
        return this.visitDelete(node, scope);
      case 'case_clause':
        for (const child of namedChildrenOf(node)) {
          if (child.type === 'case_pattern') this.visitPattern(child, scope);
          else this.push(child, scope);
        }
        return;
      default:
        if (COMPREHENSIONS.has(node.type)) return this.visitComprehension(node, scope);
        return this.pushChildren(node, scope);
    }
  }

  private reference(node: Node, scope: Scope, root: RawRoot, rootText: string, attributes: readonly string[]): void {
    scope.references.push({ line: firstLine(node), rootText, attributes, root });
  }

  /** `a.b.c` is one reference (root `a`, attributes `b`, `c`): how far it resolves is decided later. */
  private visitAttribute(node: Node, scope: Scope): void {
    const attributes: string[] = [];
    let current = node;
    while (current.type === 'attribute') {
      const object = current.childForFieldName('object');
      const attribute = current.childForFieldName('attribute');
      if (object === null || attribute === null) return this.pushChildren(current, scope);
      attributes.unshift(attribute.text);
      current = object;
    }
    if (current.type === 'identifier')
      return this.reference(node, scope, { kind: 'name', name: current.text }, current.text, attributes);
    const receiver = current.type === 'call' ? receiverOfCall(current) : null;
    if (receiver !== null) return this.reference(node, scope, receiver, current.text.replace(/\s+/g, ' '), attributes);
    this.push(current, scope);
  }

  /**
   * Records the call's callee for the call-based level modes; its loads are visited as any expression's.
   * `f(...)`, `a.b.f(...)`, `self.m(...)`, `super().m(...)`, `type(self).m(...)` and `C(...).m(...)`
   * are kept; a callee that is a subscript, a call's result called again or a literal is not.
   */
  private visitCall(node: Node, scope: Scope): void {
    const called = node.childForFieldName('function');
    if (called === null) return;
    const attributes: string[] = [];
    let current = called;
    while (current.type === 'attribute') {
      const object = current.childForFieldName('object');
      const attribute = current.childForFieldName('attribute');
      if (object === null || attribute === null) return;
      attributes.unshift(attribute.text);
      current = object;
    }
    const line = firstLine(node);
    const dotted = attributes.map((attribute) => `.${attribute}`).join('');
    if (current.type === 'identifier') {
      const root: RawRoot = { kind: 'name', name: current.text };
      scope.calls.push({
        line,
        rootText: current.text,
        attributes,
        root,
        callee: current.text + dotted,
        onInstance: false,
      });
      return;
    }
    if (current.type !== 'call' || attributes.length === 0) return;
    const inner = current.childForFieldName('function');
    if (inner?.type !== 'identifier') return;
    // `super().m(...)`, `type(self).m(...)`; else `C(...).m(...)`, a method of an instance made on the spot.
    const receiver = receiverOfCall(current);
    const root: RawRoot = receiver ?? { kind: 'name', name: inner.text };
    const onInstance = receiver === null;
    const rootText = onInstance ? inner.text : current.text.replace(/\s+/g, ' ');
    const callee = `${onInstance ? `${inner.text}(...)` : rootText}${dotted}`;
    scope.calls.push({ line, rootText, attributes, root, callee, onInstance });
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
    if (definition?.type === 'function_definition') this.visitFunction(definition, decorators, scope);
    else if (definition?.type === 'class_definition') this.visitClass(definition, scope);
  }

  private visitFunction(node: Node, decorators: readonly string[], scope: Scope): void {
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

  private visitClass(node: Node, scope: Scope): void {
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
    for (const name of node.childrenForFieldName('name')) {
      if (name === null) continue;
      if (name.type === 'dotted_name') {
        // `import a.b.c` binds `a`; the submodules are reached through it as attributes.
        const top = dottedText(name).split('.')[0] ?? '';
        if (top !== '') this.bindImport(scope, top, { kind: 'module', module: top, level: 0 });
      } else if (name.type === 'aliased_import') {
        const target = name.childForFieldName('name');
        const alias = name.childForFieldName('alias');
        if (target !== null && alias !== null)
          this.bindImport(scope, alias.text, { kind: 'module', module: dottedText(target), level: 0 });
      }
    }
  }

  private visitImportFrom(node: Node, scope: Scope): void {
    const moduleName = node.childForFieldName('module_name');
    if (moduleName === null) return;
    let source: ImportSource;
    if (moduleName.type === 'relative_import') {
      const prefix = namedChildrenOf(moduleName).find((child) => child.type === 'import_prefix');
      const dotted = namedChildrenOf(moduleName).find((child) => child.type === 'dotted_name');
      source = {
        module: dotted === undefined ? '' : dottedText(dotted),
        level: (prefix?.text ?? '').replace(/[^.]/g, '').length,
      };
    } else {
      source = { module: dottedText(moduleName), level: 0 };
    }
    if (namedChildrenOf(node).some((child) => child.type === 'wildcard_import')) {
      // Only a module may star-import in Python 3; anywhere else it is a syntax error.
      if (scope.kind === 'module') this.starImports.push(source);
      return;
    }
    for (const name of node.childrenForFieldName('name')) {
      if (name === null) continue;
      if (name.type === 'dotted_name') {
        const member = dottedText(name);
        this.bindImport(scope, member, { kind: 'member', ...source, member });
      } else if (name.type === 'aliased_import') {
        const target = name.childForFieldName('name');
        const alias = name.childForFieldName('alias');
        if (target !== null && alias !== null)
          this.bindImport(scope, alias.text, { kind: 'member', ...source, member: dottedText(target) });
      }
    }
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

/** The names a parameter or target node binds (`*args` → args, `(a, b)` → a, b). */
function boundNames(node: Node): string[] {
  if (node.type === 'identifier') return [node.text];
  return namedChildrenOf(node).flatMap((child) => (child.type === 'type' ? [] : boundNames(child)));
}

/** `a` or `a.b.c` with a plain name at the root, else null. */
function chainOf(node: Node | null): NameChain | null {
  const attributes: string[] = [];
  let current = node;
  while (current !== null && current.type === 'attribute') {
    const attribute = current.childForFieldName('attribute');
    if (attribute === null) return null;
    attributes.unshift(attribute.text);
    current = current.childForFieldName('object');
  }
  return current?.type === 'identifier' ? { root: current.text, attributes } : null;
}

function dottedText(node: Node): string {
  return namedChildrenOf(node)
    .filter((child) => child.type === 'identifier')
    .map((child) => child.text)
    .join('.');
}

/** The strings of a list or tuple of plain string literals; null for anything computed. */
function literalStrings(node: Node): string[] | null {
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

function freezeBindings(scope: Scope): Map<string, ScopeBinding> {
  const frozen = new Map<string, ScopeBinding>();
  for (const [name, binding] of scope.bindings) {
    // Declared global or nonlocal: assignments here bind the name elsewhere.
    if (scope.globals.has(name) || scope.nonlocals.has(name)) continue;
    frozen.set(name, { definition: binding.definition, imports: [...binding.imports] });
  }
  return frozen;
}

type Lookup =
  | { readonly kind: 'free'; readonly declaredGlobal: boolean }
  | { readonly kind: 'bound'; readonly scope: Scope; readonly binding: MutableBinding };

/**
 * Python's lexical rule inside `boundary` (the function whose references are collected): the
 * scope itself, then enclosing scopes except class bodies (a method does not see its class's
 * names), up to the boundary. Beyond it the name is free: the index resolves it later.
 */
function lookupWithin(name: string, from: Scope, boundary: Scope): Lookup {
  for (let scope: Scope | null = from; scope !== null; scope = scope.parent) {
    if (scope.globals.has(name)) return { kind: 'free', declaredGlobal: true };
    const visible = scope === from || scope.kind !== 'class';
    const binding = scope.bindings.get(name);
    if (visible && binding !== undefined && !scope.nonlocals.has(name)) return { kind: 'bound', scope, binding };
    if (scope === boundary) break;
  }
  return { kind: 'free', declaredGlobal: false };
}

function originOf(reference: RawReference, from: Scope, boundary: Scope): ReferenceOrigin | null {
  const root = reference.root;
  if (root.kind === 'super')
    return boundary.receiver === null ? null : { kind: 'super', classArgument: root.classArgument };
  const found = lookupWithin(root.name, from, boundary);
  if (found.kind === 'free')
    return root.kind === 'name' ? { kind: 'free', name: root.name, declaredGlobal: found.declaredGlobal } : null;
  if (found.scope === boundary && boundary.receiver !== null && root.name === boundary.firstParameter) {
    return { kind: 'receiver', via: boundary.receiver };
  }
  if (root.kind !== 'name') return null;
  // Imports inside the function count; its parameters, locals and nested definitions do not.
  if (found.binding.definition === null && found.binding.imports.length > 0)
    return { kind: 'import', imports: [...found.binding.imports] };
  return null;
}

function collectReferences(boundary: Scope): BodyReference[] {
  const found: BodyReference[] = [];
  const visit = (scope: Scope): void => {
    for (const reference of scope.references) {
      const origin = originOf(reference, scope, boundary);
      if (origin !== null)
        found.push({ line: reference.line, rootText: reference.rootText, attributes: reference.attributes, origin });
    }
    for (const child of scope.children) visit(child);
  };
  visit(boundary);
  // Scopes are visited one after the other; line order reads like the source (the sort is stable).
  return found.sort((a, b) => a.line - b.line);
}

/** A call's root: as a reference's, or else a `def`/`class` the function binds itself (a nested helper). */
function callOriginOf(call: RawCall, from: Scope, boundary: Scope): CallOrigin | null {
  const origin = originOf(call, from, boundary);
  if (origin !== null || call.root.kind !== 'name') return origin;
  const found = lookupWithin(call.root.name, from, boundary);
  return found.kind === 'bound' && found.binding.definition !== null
    ? { kind: 'nested', site: found.binding.definition }
    : null;
}

function collectCalls(boundary: Scope): CallSite[] {
  const found: CallSite[] = [];
  const visit = (scope: Scope): void => {
    for (const call of scope.calls) {
      const origin = callOriginOf(call, scope, boundary);
      if (origin !== null)
        found.push({
          line: call.line,
          callee: call.callee,
          rootText: call.rootText,
          attributes: call.attributes,
          onInstance: call.onInstance,
          origin,
        });
    }
    for (const child of scope.children) visit(child);
  };
  visit(boundary);
  return found.sort((a, b) => a.line - b.line);
}

/**
 * Summarizes one parsed module for the repository index. `keepReferences` limits which functions
 * keep their body references (all by default): a pipeline that classifies only candidates keeps the
 * index small.
 */
export function summarizeModule(root: Node, file: string, keepReferences: KeepReferences = () => true): ModuleSummary {
  const visitor = new ScopeVisitor(file);
  visitor.run(root);
  const classes: ClassSummary[] = visitor.classScopes.map((scope) => ({
    qualname: scope.qualname,
    line: scope.line,
    endLine: scope.endLine,
    bases: scope.bases,
    members: freezeBindings(scope),
  }));
  const functions: FunctionSummary[] = visitor.functionScopes.map((scope) => {
    const keep = keepReferences(scope.qualname, scope.line);
    return {
      qualname: scope.qualname,
      line: scope.line,
      endLine: scope.endLine,
      receiver: scope.receiver,
      firstParameter: scope.firstParameter,
      bindings: freezeBindings(scope),
      globals: new Set(scope.globals),
      references: keep ? collectReferences(scope) : [],
      calls: keep ? collectCalls(scope) : [],
    };
  });
  return {
    file,
    bindings: freezeBindings(visitor.module),
    starImports: visitor.starImports,
    exportedNames: visitor.exportedNames,
    classes,
    functions,
  };
}
