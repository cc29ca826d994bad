import { type FunctionRecord, solutionSpan } from '@repocod/core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Parser } from 'web-tree-sitter';
import { parsePythonText } from './parse-python-file.js';
import { loadPythonParser } from './python-parser.js';

let parser: Parser;
beforeAll(async () => {
  parser = await loadPythonParser();
});

function extract(source: string, file = 'pkg/mod.py'): FunctionRecord[] {
  const parsed = parsePythonText(parser, source, file);
  parsed.tree.delete();
  return [...parsed.functions];
}

function only(source: string, qualname: string): FunctionRecord {
  const found = extract(source).find((fn) => fn.qualname === qualname);
  if (found === undefined) throw new Error(`no function ${qualname}`);
  return found;
}

const LONG_DOC = [
  'import os',
  '',
  '@decorator(arg)',
  '@other',
  'def target(a, b=1,',
  '           *args, c: int = 2, **kw) -> int:',
  '    """Summary.',
  '',
  '    More.',
  '    """',
  '    # leading comment is part of the solution',
  '    x = a + b',
  '    return x',
  '    # trailing comment is not part of the function',
  '',
  'y = 1',
  '',
].join('\n');

describe('extractFunctions: spans and slices', () => {
  it('gives the definition, signature, docstring and body spans, 1-based', () => {
    const fn = only(LONG_DOC, 'target');
    expect(fn.definitionSpan).toEqual({ start: 3, end: 13 });
    expect(fn.signatureSpan).toEqual({ start: 5, end: 6 });
    expect(fn.docstringSpan).toEqual({ start: 7, end: 10 });
    expect(fn.bodySpan).toEqual({ start: 7, end: 13 });
    expect(fn.decorators).toEqual(['decorator(arg)', 'other']);
    expect(fn.parameterCount).toBe(5);
  });

  it('cuts prompt, solution and full exactly as REPOCOD defines them', () => {
    const fn = only(LONG_DOC, 'target');
    expect(fn.slices.prompt).toBe(
      'def target(a, b=1,\n           *args, c: int = 2, **kw) -> int:\n    """Summary.\n\n    More.\n    """\n',
    );
    expect(fn.slices.solution).toBe('    # leading comment is part of the solution\n    x = a + b\n    return x\n');
    expect(fn.slices.full).toBe(fn.slices.prompt + fn.slices.solution);
  });

  it('keeps CRLF endings and tabs in the slices', () => {
    const source = 'class A:\r\n\tdef m(self):\r\n\t\t"""Doc."""\r\n\t\treturn 1\r\n';
    const fn = only(source, 'A.m');
    expect(fn.slices.prompt).toBe('\tdef m(self):\r\n\t\t"""Doc."""\r\n');
    expect(fn.slices.solution).toBe('\t\treturn 1\r\n');
    expect(fn.kind).toBe('method');
  });

  it('includes `async def` in the prompt and keeps a last line without newline', () => {
    const fn = only('async def fetch(url):\n    """Get it."""\n    return await go(url)', 'fetch');
    expect(fn.isAsync).toBe(true);
    expect(fn.kind).toBe('async');
    expect(fn.slices.prompt).toBe('async def fetch(url):\n    """Get it."""\n');
    expect(fn.slices.solution).toBe('    return await go(url)');
  });

  it('has an empty solution for a one-line function and a signature-only prompt without docstring', () => {
    const one = only('def one(): return 1\n', 'one');
    expect(one.docstringSpan).toBeNull();
    expect(one.slices.prompt).toBe('def one(): return 1\n');
    expect(one.slices.solution).toBe('');
    const plain = only('def plain(x):\n    return x\n', 'plain');
    expect(plain.slices.prompt).toBe('def plain(x):\n');
    expect(plain.slices.solution).toBe('    return x\n');
  });

  it("has core's solutionSpan name exactly the lines of the solution slice, whatever the prompt's shape", () => {
    const docOnly = 'def doc_only():\n    """Only a docstring."""\n';
    const sources = [
      LONG_DOC,
      'class A:\r\n\tdef m(self):\r\n\t\t"""Doc."""\r\n\t\treturn 1\r\n',
      'def one(): return 1\n',
      'def plain(x):\n    return x\n',
      docOnly,
      'def outer(a):\n    """Doc."""\n\n    def inner(b):\n        return b\n\n    return inner(a)\n',
    ];
    const checked = sources.flatMap((source) => {
      const lines = source.match(/[^\n]*\n|[^\n]+$/g) ?? [];
      return extract(source).map((fn) => {
        const span = solutionSpan(fn);
        return [fn.qualname, lines.slice(span.start - 1, span.end).join(''), fn.slices.solution];
      });
    });
    expect(checked.length).toBe(7);
    for (const [qualname, sliced, solution] of checked) expect(sliced, qualname).toBe(solution);
    expect(solutionSpan(only(docOnly, 'doc_only'))).toEqual({ start: 3, end: 2 });
  });
});

describe('extractFunctions: docstrings', () => {
  const docOf = (body: string): FunctionRecord['docstringSpan'] =>
    only(`def f():\n    ${body}\n    pass\n`, 'f').docstringSpan;

  it.each([
    ['"""triple double"""'],
    ["'''triple single'''"],
    ['"double"'],
    ["'single'"],
    ['r"""raw"""'],
    ['R"raw"'],
    ['u"unicode"'],
    ['U"""unicode"""'],
    ['"implicit" "concatenation"'],
    ['("parenthesised")'],
  ])('%s is a docstring', (literal) => {
    expect(docOf(literal)).toEqual({ start: 2, end: 2 });
  });

  it.each([['f"formatted"'], ['b"bytes"'], ['rb"raw bytes"'], ['"a" + "b"'], ['x = "assigned"']])(
    '%s is not a docstring',
    (literal) => {
      expect(docOf(literal)).toBeNull();
    },
  );

  it('spans from the opening to the closing quote line', () => {
    const fn = only('def f():\n    """One.\n\n    Two.\n    Three."""\n    return 1\n', 'f');
    expect(fn.docstringSpan).toEqual({ start: 2, end: 5 });
    expect(fn.slices.solution).toBe('    return 1\n');
  });

  it('finds a docstring after a comment line', () => {
    expect(only('def f():\n    # note\n    """Doc."""\n    return 1\n', 'f').docstringSpan).toEqual({
      start: 3,
      end: 3,
    });
  });
});

describe('extractFunctions: names and kinds', () => {
  const source = [
    'class Outer(Base):',
    '    class Inner:',
    '        def method(self): pass',
    '    @property',
    '    def size(self): return 1',
    '    @size.setter',
    '    def size(self, value): pass',
    '    @staticmethod',
    '    def make(): pass',
    '    @classmethod',
    '    def build(cls): pass',
    '    async def run(self): pass',
    '    if FLAG:',
    '        def conditional(self): pass',
    '    def __eq__(self, other): return True',
    '',
    'def outer():',
    '    def inner():',
    '        def innermost(): pass',
    '    class Local:',
    '        def method(self): pass',
    '    return inner',
    '',
    'try:',
    '    def guarded(): pass',
    'except ImportError:',
    '    def guarded(): pass',
  ].join('\n');

  it('names definitions with Python qualnames and flags nesting', () => {
    const found = extract(source).map((fn) => [fn.qualname, fn.kind, fn.nested, fn.className]);
    expect(found).toEqual([
      ['Outer.Inner.method', 'method', false, 'Outer.Inner'],
      ['Outer.size', 'property', false, 'Outer'],
      ['Outer.size', 'property', false, 'Outer'],
      ['Outer.make', 'staticmethod', false, 'Outer'],
      ['Outer.build', 'classmethod', false, 'Outer'],
      ['Outer.run', 'async', false, 'Outer'],
      ['Outer.conditional', 'method', false, 'Outer'],
      ['Outer.__eq__', 'method', false, 'Outer'],
      ['outer', 'function', false, null],
      ['outer.<locals>.inner', 'function', true, null],
      ['outer.<locals>.inner.<locals>.innermost', 'function', true, null],
      ['outer.<locals>.Local.method', 'method', true, 'outer.<locals>.Local'],
      ['guarded', 'function', false, null],
      ['guarded', 'function', false, null],
    ]);
  });
});

describe('extractFunctions: test code and syntax errors', () => {
  it.each([
    ['tests/test_x.py', true],
    ['pkg/tests/helpers.py', true],
    ['pkg/testing/util.py', true],
    ['conftest.py', true],
    ['pkg/x_test.py', true],
    ['pkg/testament.py', false],
    ['pkg/contest.py', false],
  ])('%s is test code: %s', (file, expected) => {
    expect(extract('def f(): pass\n', file)[0]?.isTestCode).toBe(expected);
  });

  it('keeps the functions that parse cleanly and reports the error lines', () => {
    const source =
      'def good():\n    return 1\n\ndef bad(:\n    return 2\n\nclass C:\n    def fine(self):\n        return 3\n';
    const parsed = parsePythonText(parser, source, 'broken.py');
    parsed.tree.delete();
    expect(parsed.functions.map((fn) => fn.qualname)).toEqual(['good', 'C.fine']);
    expect(parsed.issue?.kind).toBe('syntax-error');
    expect(parsed.issue?.lines).toContain(4);
    expect(parsed.issue?.message).toContain('broken.py');
  });
});

describe('syntaxErrorLines', () => {
  it('points at the innermost error when tree-sitter wraps a whole file in one ERROR node', () => {
    // tree-sitter-python loses track of indentation on a dedent inside brackets (CPython's test_compile.py).
    const source = [
      'import os',
      'class T:',
      '    def test_positions(self):',
      '        def f():',
      '            (bar.',
      '        baz)',
      '            return 1',
      '        return f',
      '',
    ].join('\n');
    const parsed = parsePythonText(parser, source, 'weird.py');
    const wrapped = parsed.tree.rootNode.firstChild?.type;
    parsed.tree.delete();
    expect(wrapped).toBe('ERROR');
    expect(parsed.issue?.lines[0]).toBe(5);
  });
});

describe('extractFunctions: review cases', () => {
  it('reads a decorator without its trailing comment, so the kind is right', () => {
    const fn = only('class A:\n    @property  # type: ignore\n    def size(self):\n        return 1\n', 'A.size');
    expect(fn.decorators).toEqual(['property']);
    expect(fn.kind).toBe('property');
  });

  it('finds a docstring with comments inside its brackets or between its parts', () => {
    expect(only('def f():\n    ("a"\n     # note\n     "b")\n    return 1\n', 'f').docstringSpan).toEqual({
      start: 2,
      end: 4,
    });
    expect(only('def f():\n    (  # note\n        "doc")\n    return 1\n', 'f').docstringSpan).toEqual({
      start: 3,
      end: 3,
    });
  });

  it('never stores a file whose functions were dropped for an error as clean', () => {
    // Bare CR line endings: Python reads them as newlines, tree-sitter-python does not.
    const parsed = parsePythonText(parser, 'def f():\r    """doc\r    more"""\r    return 1\r', 'cr.py');
    const hasError = parsed.tree.rootNode.hasError;
    parsed.tree.delete();
    expect(hasError).toBe(true);
    expect(parsed.issue?.kind).toBe('syntax-error');
    expect(parsed.issue?.lines.length).toBeGreaterThan(0);
  });
});
