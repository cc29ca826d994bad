/** A 1-based, inclusive range of source lines. */
export interface LineSpan {
  readonly start: number;
  readonly end: number;
}

export function spanLength(span: LineSpan): number {
  return span.end - span.start + 1;
}

/**
 * The lines of a function's REPOCOD solution: every line after the prompt (after the docstring's closing-quote
 * line, or after the signature when there is no docstring) through the body's last line; what a task's pre patch
 * removes. Empty (`end < start`) for a function whose body is its docstring alone, or a one-line `def`.
 */
export function solutionSpan(fn: Pick<FunctionRecord, 'signatureSpan' | 'docstringSpan' | 'bodySpan'>): LineSpan {
  return { start: (fn.docstringSpan ?? fn.signatureSpan).end + 1, end: fn.bodySpan.end };
}

/**
 * The role a definition plays. Decorator roles win over `async` (an async property is a property);
 * `async` marks the remaining `async def` functions and methods. `isAsync` is kept separately so
 * that no information is lost by the precedence.
 */
export type FunctionKind = 'function' | 'method' | 'staticmethod' | 'classmethod' | 'property' | 'async';

/** The three REPOCOD slices of a function, each the exact source lines with their line endings. */
export interface FunctionSlices {
  /** `def` line (decorators excluded, `async def` included) through the docstring's closing-quote line. */
  readonly prompt: string;
  /** Every line after the prompt through the function's last line; may be empty for one-liners. */
  readonly solution: string;
  /** prompt + solution: the definition without its decorators. */
  readonly full: string;
}

/** One function or method as the Python source model sees it (no metrics yet). */
export interface FunctionRecord {
  /** Repository-relative path with `/` separators. */
  readonly file: string;
  readonly name: string;
  /** Python's `__qualname__`: `Class.method`, `Outer.Inner.method`, `outer.<locals>.inner`. */
  readonly qualname: string;
  /** Qualified name of the class the function is a method of, or null. */
  readonly className: string | null;
  /** True when the function is defined inside another function's body. */
  readonly nested: boolean;
  readonly kind: FunctionKind;
  readonly isAsync: boolean;
  /** Decorator expressions as written, without the `@`. */
  readonly decorators: readonly string[];
  /** True when the file is one pytest would treat as test code (test_*.py, conftest.py, tests/ …). */
  readonly isTestCode: boolean;
  /** From the first decorator (or the `def`) through the last line of the body. */
  readonly definitionSpan: LineSpan;
  /** From the `def` line through the line with the signature's closing colon. */
  readonly signatureSpan: LineSpan;
  /** The docstring literal, opening through closing quote lines; null when there is no docstring. */
  readonly docstringSpan: LineSpan | null;
  /** First through last line of the body's statements (docstring included, trailing comments not). */
  readonly bodySpan: LineSpan;
  readonly slices: FunctionSlices;
  /** Number of parameters, as written (self/cls included). */
  readonly parameterCount: number;
}

/** Lengths and complexity of a function (packages/metrics). */
export interface FunctionMetrics {
  /** Cyclomatic complexity, equal to radon 5.1.0's `cc`. */
  readonly cyclomatic: number;
  readonly promptTokens: number;
  readonly solutionTokens: number;
  readonly promptLines: number;
  readonly solutionLines: number;
  /** escomplex's Halstead volume over the body: length × log2(vocabulary). */
  readonly halsteadVolume: number;
  /** escomplex's Halstead effort over the body: difficulty × volume. */
  readonly halsteadEffort: number;
  /** escomplex's logical lines of code of the body. */
  readonly logicalLines: number;
  /** escomplex's maintainability index for the function on its own (see packages/metrics). */
  readonly maintainability: number;
}

export interface AnalysedFunction extends FunctionRecord {
  readonly metrics: FunctionMetrics;
  readonly isCandidate: boolean;
}

/** Why a file gave no functions or only some of them. */
export interface FileIssue {
  readonly file: string;
  readonly kind: 'syntax-error' | 'not-utf8' | 'binary' | 'unreadable' | 'analysis-error';
  /** 1-based lines of the syntax errors found (syntax-error only). */
  readonly lines: readonly number[];
  readonly message: string;
}
