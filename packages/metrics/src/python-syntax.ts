/**
 * escomplex syntax definitions for Python's tree-sitter node types: what each node adds to the
 * cyclomatic count, to the logical lines and to Halstead's operators and operands.
 *
 * The cyclomatic amounts reproduce radon 5.1.0's ComplexityVisitor (radon/visitors.py):
 *   if / elif / conditional expression      +1 each
 *   for / while (async for too)             +1, and +1 more with an `else:` clause (when `forin`)
 *   try                                     +1 per `except` handler, +1 for `else:` (when `trycatch`);
 *                                           `try … except*` (ast.TryStar) adds nothing: radon 5.1.0
 *                                           only knows the node names Try and TryExcept
 *   boolean operator                        +1 per `and`/`or` (when `logicalor`): radon adds
 *                                           len(values) - 1 per BoolOp, tree-sitter nests binary ops
 *   comprehension                           +1 per `for` clause, +1 per `if` clause
 *   assert                                  +1, and nothing inside it is visited
 *   match                                   nothing in radon 5.1.0; with `switchcase`, radon 6's rule:
 *                                           +1 per case except an irrefutable one (`case _`, `case x`)
 *   with, lambda, finally, decorators       nothing (a lambda's body is still visited)
 */

/** The node as the walker shows it to escomplex; one object reused per walk, read synchronously. */
export interface PythonNodeView {
  type: string;
  /** Cyclomatic amount the walker worked out from the node's children (try, match cases). */
  amount: number;
  readonly text: string;
}

export interface HalsteadItem {
  readonly identifier: string | ((node: PythonNodeView) => string);
  readonly filter?: (node: PythonNodeView) => boolean;
}

/** The shape escomplex's core reads from a syntax definition. */
export interface SyntaxDefinition {
  readonly lloc?: number;
  readonly cyclomatic?: number | ((node: PythonNodeView) => number);
  readonly operators?: readonly HalsteadItem[];
  readonly operands?: readonly HalsteadItem[];
}

/** The escomplex options, every one passed; their meaning for Python is documented on each. */
export interface ComplexitySettings {
  /** Count `and`/`or` (radon: yes). */
  readonly logicalor: boolean;
  /** Count `match` cases by radon 6's rule (radon 5.1.0: no). */
  readonly switchcase: boolean;
  /** Count `for` loops and comprehension `for` clauses (radon: yes; Python has only for-in loops). */
  readonly forin: boolean;
  /** Count `except` handlers and `try … else` (radon: yes). */
  readonly trycatch: boolean;
  /** escomplex's rescaled maintainability index, 0..100 instead of ..171. */
  readonly newmi: boolean;
}

/** The settings that reproduce `radon cc` 5.1.0, the version the REPOCOD paper's figures match. */
export const RADON_5_1_SETTINGS: ComplexitySettings = {
  logicalor: true,
  switchcase: false,
  forin: true,
  trycatch: true,
  newmi: false,
};

const OPERAND_TYPES = ['identifier', 'integer', 'float', 'string', 'true', 'false', 'none', 'ellipsis'] as const;

/** Punctuation is structure, not an operation, so it is no Halstead operator. */
const PUNCTUATION = new Set(['(', ')', '[', ']', '{', '}', ',', ':', ';', '\\', '"', "'"]);

const operandByText: readonly HalsteadItem[] = [{ identifier: (node) => node.text }];
const dynamic = (node: PythonNodeView): number => node.amount;

export type Counting = 'counted' | 'uncounted';

/**
 * Looks up the syntax of a node. `parentType` decides the clauses whose meaning depends on where
 * they stand (an `else` of a loop counts, an `else` of an `if` does not); `counting` is 'uncounted'
 * inside an assert, whose contents radon never visits, so they feed Halstead only.
 */
export class PythonSyntax {
  private readonly counted = new Map<string, SyntaxDefinition>();
  private readonly uncounted = new Map<string, SyntaxDefinition>();
  private readonly operatorCache = new Map<string, SyntaxDefinition>();

  constructor(readonly settings: ComplexitySettings) {
    const statement = { lloc: 1 };
    const decision = { cyclomatic: 1 };
    const loop = settings.forin ? decision : {};
    this.define('if_statement', { lloc: 1, cyclomatic: 1, operators: [{ identifier: 'if' }] });
    this.define('elif_clause', { lloc: 1, cyclomatic: 1 });
    this.define('conditional_expression', { cyclomatic: 1, operators: [{ identifier: 'if-else' }] });
    this.define('for_statement', { lloc: 1, ...loop });
    this.define('while_statement', { lloc: 1, cyclomatic: 1 });
    this.define('for_in_clause', loop);
    this.define('if_clause', decision);
    this.define('boolean_operator', settings.logicalor ? decision : {});
    this.define('try_statement', { lloc: 1, cyclomatic: settings.trycatch ? dynamic : 0 });
    this.define('assert_statement', { lloc: 1, cyclomatic: 1 });
    this.define('match_statement', { lloc: 1 });
    this.define('case_clause', { lloc: 1, cyclomatic: settings.switchcase ? dynamic : 0 });
    this.define('call', { operators: [{ identifier: '()' }] });
    this.define('subscript', { operators: [{ identifier: '[]' }] });
    for (const type of OPERAND_TYPES) this.define(type, { operands: operandByText });
    for (const type of STATEMENT_TYPES) this.define(type, statement);
  }

  private define(type: string, syntax: SyntaxDefinition): void {
    this.counted.set(type, syntax);
    const { cyclomatic: _dropped, ...halsteadOnly } = syntax;
    this.uncounted.set(type, halsteadOnly);
  }

  /** The syntax of a named node, or undefined when it contributes nothing. */
  named(type: string, parentType: string, counting: Counting): SyntaxDefinition | undefined {
    if (type === 'else_clause') return this.elseClause(parentType, counting);
    if (type === 'if_clause' && parentType === 'case_clause') return undefined;
    return (counting === 'counted' ? this.counted : this.uncounted).get(type);
  }

  /** Anonymous tokens (keywords and operators) are Halstead operators, punctuation excepted. */
  anonymous(type: string): SyntaxDefinition | undefined {
    if (PUNCTUATION.has(type)) return undefined;
    let syntax = this.operatorCache.get(type);
    if (syntax === undefined) {
      syntax = { operators: [{ identifier: type }] };
      this.operatorCache.set(type, syntax);
    }
    return syntax;
  }

  private elseClause(parentType: string, counting: Counting): SyntaxDefinition {
    const loopElse = parentType === 'for_statement' ? this.settings.forin : parentType === 'while_statement';
    return counting === 'counted' && loopElse ? ELSE_COUNTED : ELSE_PLAIN;
  }
}

const ELSE_COUNTED: SyntaxDefinition = { lloc: 1, cyclomatic: 1 };
const ELSE_PLAIN: SyntaxDefinition = { lloc: 1 };

/** Simple and compound statements: one logical line each, as escomplex counts statements. */
const STATEMENT_TYPES = [
  'expression_statement',
  'return_statement',
  'delete_statement',
  'raise_statement',
  'pass_statement',
  'break_statement',
  'continue_statement',
  'import_statement',
  'import_from_statement',
  'future_import_statement',
  'global_statement',
  'nonlocal_statement',
  'exec_statement',
  'print_statement',
  'type_alias_statement',
  'with_statement',
  'except_clause',
  'finally_clause',
  'function_definition',
  'class_definition',
];
