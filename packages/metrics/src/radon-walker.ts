import { PARAMETER_TYPES, STATEMENT_CONTAINER_TYPES, literalPrefix } from '@repocod/python';
import type { Language, Tree, TreeCursor } from 'web-tree-sitter';
import type { ComplexitySettings, Counting, PythonNodeView, SyntaxDefinition } from './python-syntax.js';
import { PythonSyntax } from './python-syntax.js';

/** What escomplex's core hands a walker. */
export interface EscomplexCallbacks {
  processNode(node: PythonNodeView, syntax: SyntaxDefinition): void;
  createScope(name: string, loc: SourceLocation, parameterCount: number): void;
  popScope(): void;
}

export interface SourceLocation {
  readonly start: { readonly line: number };
  readonly end: { readonly line: number };
}

/** The "AST" we give escomplex: the tree-sitter tree and the text it was parsed from. */
export interface PythonModuleAst {
  readonly loc: SourceLocation;
  readonly tree: Tree;
  readonly text: string;
}

/** escomplex names each function report by the `def` line, which is unique in a file. */
export function scopeName(defLine: number): string {
  return String(defLine);
}

/** Whether a string literal's prefix (the letters before its quote) makes it an f-string. */
function isFormattedString(literal: string): boolean {
  return /[fF]/.test(literalPrefix(literal));
}

/** Named node types that never have children in tree-sitter-python. */
const LEAF_TYPES = [
  'identifier',
  'integer',
  'float',
  'true',
  'false',
  'none',
  'ellipsis',
  'string_start',
  'string_content',
  'string_end',
  'escape_sequence',
  'comment',
  'type_conversion',
];

/**
 * Per-language tables indexed by node type id: the cursor reports a numeric id, and reading the
 * type name as a string for each of millions of nodes would cost more than the whole walk.
 */
class TypeTable {
  readonly names: readonly string[];
  readonly isNamed: readonly boolean[];
  readonly isContainer: readonly boolean[];
  readonly isParameter: readonly boolean[];
  readonly isLeaf: readonly boolean[];

  constructor(language: Language) {
    const count = language.nodeTypeCount;
    const names: string[] = [];
    const isNamed: boolean[] = [];
    for (let id = 0; id < count; id++) {
      names.push(language.nodeTypeForId(id) ?? '');
      isNamed.push(language.nodeTypeIsNamed(id));
    }
    this.names = names;
    this.isNamed = isNamed;
    this.isContainer = names.map(
      (name, id) => isNamed[id] === true && (name === 'module' || STATEMENT_CONTAINER_TYPES.has(name)),
    );
    this.isParameter = names.map((name, id) => isNamed[id] === true && PARAMETER_TYPES.has(name));
    this.isLeaf = names.map((name, id) => isNamed[id] === true && LEAF_TYPES.includes(name));
  }
}

const typeTables = new WeakMap<Language, TypeTable>();
const syntaxBySettings = new WeakMap<ComplexitySettings, PythonSyntax>();

function tableFor(language: Language): TypeTable {
  let table = typeTables.get(language);
  if (table === undefined) {
    table = new TypeTable(language);
    typeTables.set(language, table);
  }
  return table;
}

function syntaxFor(settings: ComplexitySettings): PythonSyntax {
  let syntax = syntaxBySettings.get(settings);
  if (syntax === undefined) {
    syntax = new PythonSyntax(settings);
    syntaxBySettings.set(settings, syntax);
  }
  return syntax;
}

/**
 * The node escomplex sees. Its text is read from the cursor only when a syntax definition asks for
 * it (operands), since every position read crosses into wasm.
 */
/** How the children of a node are walked: their parent's type and whether they count. */
interface Frame {
  readonly type: string;
  readonly counting: Counting;
}

class NodeView implements PythonNodeView {
  type = '';
  amount = 0;

  constructor(
    private readonly source: string,
    private readonly cursor: TreeCursor,
  ) {}

  get text(): string {
    return this.source.slice(this.cursor.startIndex, this.cursor.endIndex);
  }
}

/**
 * The walker escomplex's core drives: `analyse(ast, pythonWalker, settings)`. It reproduces which
 * nodes radon's ComplexityVisitor counts for which function:
 * - a function's own metrics cover its body only: decorators, parameter defaults and annotations
 *   are visited by nobody (radon's visit_FunctionDef never calls generic_visit);
 * - a nested `def` is its own scope and adds nothing to its parent; a lambda is part of its parent;
 * - a class body inside a function adds nothing to that function (its methods are scopes of their own);
 * - the contents of an `assert` are not counted (radon's visit_Assert does not recurse), though
 *   they still feed Halstead.
 * Code outside every function is only searched for definitions, never measured.
 */
export const pythonWalker = {
  walk(ast: PythonModuleAst, settings: ComplexitySettings, callbacks: EscomplexCallbacks): void {
    const cursor = ast.tree.walk();
    try {
      new RadonWalk(cursor, tableFor(ast.tree.language), syntaxFor(settings), ast.text, callbacks).outside();
    } finally {
      cursor.delete();
    }
  },
};

class RadonWalk {
  private readonly view: NodeView;

  constructor(
    private readonly cursor: TreeCursor,
    private readonly types: TypeTable,
    private readonly syntax: PythonSyntax,
    source: string,
    private readonly callbacks: EscomplexCallbacks,
  ) {
    this.view = new NodeView(source, cursor);
  }

  private typeName(): string {
    return this.types.names[this.cursor.nodeTypeId] ?? '';
  }

  /** At a statement container outside any function: look for definitions among the statements. */
  outside(): void {
    const cursor = this.cursor;
    if (!cursor.gotoFirstChild()) return;
    do {
      const id = cursor.nodeTypeId;
      if (!this.types.isNamed[id]) continue;
      if (this.types.isContainer[id]) this.outside();
      else this.definition(this.typeName());
    } while (cursor.gotoNextSibling());
    cursor.gotoParent();
  }

  /** At a function, class or decorated definition; anything else is left alone. */
  private definition(type: string): void {
    if (type === 'function_definition') this.function();
    else if (type === 'class_definition') this.eachChild((child) => child === 'block' && this.outside());
    else if (type === 'decorated_definition') {
      // Decorators are measured by nobody; only the definition they decorate is visited.
      this.eachChild((child) => child !== 'decorator' && this.definition(child));
    }
  }

  private function(): void {
    const cursor = this.cursor;
    const defLine = cursor.startPosition.row + 1;
    const endLine = cursor.endPosition.row + 1;
    let parameterCount = 0;
    this.eachChild((child) => {
      if (child === 'parameters') parameterCount = this.countParameters();
      else if (child === 'block') {
        this.callbacks.createScope(
          scopeName(defLine),
          { start: { line: defLine }, end: { line: endLine } },
          parameterCount,
        );
        this.children('block', 'counted');
        this.callbacks.popScope();
      }
    });
  }

  /** Calls `visit` with the cursor on each named child in turn, with that child's type. */
  private eachChild(visit: (type: string) => unknown): void {
    const cursor = this.cursor;
    if (!cursor.gotoFirstChild()) return;
    do {
      if (this.types.isNamed[cursor.nodeTypeId]) visit(this.typeName());
    } while (cursor.gotoNextSibling());
    cursor.gotoParent();
  }

  private countParameters(): number {
    const cursor = this.cursor;
    let count = 0;
    if (cursor.gotoFirstChild()) {
      do {
        if (this.types.isParameter[cursor.nodeTypeId]) count++;
      } while (cursor.gotoNextSibling());
      cursor.gotoParent();
    }
    return count;
  }

  /**
   * Measures the node under the cursor; returns how to walk its children, or null when they are not
   * to be walked (leaves, plain strings, and definitions, which walk themselves).
   */
  private measure(parentType: string, counting: Counting): Frame | null {
    const cursor = this.cursor;
    const id = cursor.nodeTypeId;
    if (!this.types.isNamed[id]) {
      const token = this.types.names[id] ?? '';
      const syntax = this.syntax.anonymous(token);
      if (syntax !== undefined) this.process(token, syntax, 0);
      return null;
    }
    const type = this.types.names[id] ?? '';
    switch (type) {
      case 'function_definition':
        this.function();
        return null;
      case 'class_definition':
      case 'decorated_definition':
        this.definition(type);
        return null;
      case 'comment':
        return null;
    }
    const syntax = this.syntax.named(type, parentType, counting);
    if (syntax !== undefined) {
      const amount = type === 'try_statement' ? this.tryAmount() : type === 'case_clause' ? this.caseAmount() : 0;
      this.process(type, syntax, amount);
    }
    // Asking a leaf for its children costs a call into wasm, for millions of identifiers; a plain
    // string's children are its quotes and text, only an f-string holds expressions.
    if (this.types.isLeaf[id] === true || (type === 'string' && !isFormattedString(this.view.text))) return null;
    return { type, counting: type === 'assert_statement' ? 'uncounted' : counting };
  }

  /**
   * Measures everything below the node under the cursor. Iterative, with a frame per level: an
   * expression such as a generated `a + b + … ` chain nests thousands of levels deep, more than the
   * call stack holds.
   */
  private children(type: string, counting: Counting): void {
    const cursor = this.cursor;
    if (!cursor.gotoFirstChild()) return;
    const frames: Frame[] = [{ type, counting }];
    for (;;) {
      const frame = frames[frames.length - 1] as Frame;
      const descend = this.measure(frame.type, frame.counting);
      if (descend !== null && cursor.gotoFirstChild()) {
        frames.push(descend);
        continue;
      }
      while (!cursor.gotoNextSibling()) {
        cursor.gotoParent();
        frames.pop();
        if (frames.length === 0) return;
      }
    }
  }

  private process(type: string, syntax: SyntaxDefinition, amount: number): void {
    this.view.type = type;
    this.view.amount = amount;
    this.callbacks.processNode(this.view, syntax);
  }

  /** radon: handlers + 1 for `else`; `except*` makes a TryStar, which radon 5.1.0 does not count. */
  private tryAmount(): number {
    const cursor = this.cursor;
    let handlers = 0;
    let hasElse = false;
    let isStar = false;
    if (cursor.gotoFirstChild()) {
      do {
        const type = this.typeName();
        if (type === 'except_clause' || type === 'except_group_clause') {
          handlers++;
          isStar ||= type === 'except_group_clause' || this.hasStarToken();
        } else if (type === 'else_clause') hasElse = true;
      } while (cursor.gotoNextSibling());
      cursor.gotoParent();
    }
    return isStar ? 0 : handlers + (hasElse ? 1 : 0);
  }

  private hasStarToken(): boolean {
    const cursor = this.cursor;
    let star = false;
    if (cursor.gotoFirstChild()) {
      if (cursor.gotoNextSibling()) star = this.typeName() === '*';
      cursor.gotoParent();
    }
    return star;
  }

  /** radon 6: every case counts but an irrefutable one (`case _:` or a bare capture `case x:`). */
  private caseAmount(): number {
    const cursor = this.cursor;
    let irrefutable = false;
    if (cursor.gotoFirstChild()) {
      do {
        if (this.typeName() === 'case_pattern') {
          irrefutable = /^[A-Za-z_]\w*$/.test(this.textHere());
          break;
        }
      } while (cursor.gotoNextSibling());
      cursor.gotoParent();
    }
    return irrefutable ? 0 : 1;
  }

  private textHere(): string {
    return this.view.text;
  }
}
