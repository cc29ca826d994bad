import { loadPythonParser, parsePythonText } from '@repocod/python';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Parser } from 'web-tree-sitter';
import type { BodyReference, FunctionSummary, ModuleSummary } from './module-summary.js';
import type { KeepReferences } from './summarize-module.js';
import { summarizeModule } from './summarize-module.js';

let parser: Parser;
beforeAll(async () => {
  parser = await loadPythonParser();
});

function summarize(lines: readonly string[], keep?: KeepReferences): ModuleSummary {
  const parsed = parsePythonText(parser, `${lines.join('\n')}\n`, 'pkg/mod.py');
  try {
    return summarizeModule(parsed.tree.rootNode, 'pkg/mod.py', keep);
  } finally {
    parsed.tree.delete();
  }
}

function functionNamed(summary: ModuleSummary, qualname: string): FunctionSummary {
  const found = summary.functions.find((fn) => fn.qualname === qualname);
  if (found === undefined) throw new Error(`no function ${qualname}`);
  return found;
}

/** References as `text:origin` strings, easy to compare. */
function describeReferences(references: readonly BodyReference[]): string[] {
  return references.map((reference) => {
    const text = [reference.rootText, ...reference.attributes].join('.');
    const origin = reference.origin;
    const detail =
      origin.kind === 'receiver' ? origin.via : origin.kind === 'free' && origin.declaredGlobal ? 'global' : '';
    return `${text}:${origin.kind}${detail === '' ? '' : `(${detail})`}`;
  });
}

describe('summarizeModule: module scope', () => {
  it('binds definitions, imports and assignments, a definition winning over a later rebinding', () => {
    const summary = summarize([
      'import os.path',
      'import numpy as np',
      'from . import sibling',
      'from ..up import thing as other',
      'from star import *',
      'try:',
      '    from fast import speedup',
      'except ImportError:',
      '    from .slow import speedup',
      'def f():',
      '    pass',
      'f = wrap(f)',
      'class C:',
      '    pass',
      'VALUE = 1',
    ]);
    const binding = (name: string): unknown => summary.bindings.get(name);
    expect(binding('os')).toEqual({ definition: null, imports: [{ kind: 'module', module: 'os', level: 0 }] });
    expect(binding('np')).toEqual({ definition: null, imports: [{ kind: 'module', module: 'numpy', level: 0 }] });
    expect(binding('sibling')).toEqual({
      definition: null,
      imports: [{ kind: 'member', module: '', level: 1, member: 'sibling' }],
    });
    expect(binding('other')).toEqual({
      definition: null,
      imports: [{ kind: 'member', module: 'up', level: 2, member: 'thing' }],
    });
    expect(binding('speedup')).toEqual({
      definition: null,
      imports: [
        { kind: 'member', module: 'fast', level: 0, member: 'speedup' },
        { kind: 'member', module: 'slow', level: 1, member: 'speedup' },
      ],
    });
    expect(binding('f')).toEqual({
      definition: { file: 'pkg/mod.py', qualname: 'f', kind: 'function', line: 10 },
      imports: [],
    });
    expect(binding('C')).toEqual({
      definition: { file: 'pkg/mod.py', qualname: 'C', kind: 'class', line: 13 },
      imports: [],
    });
    expect(binding('VALUE')).toEqual({ definition: null, imports: [] });
    expect(summary.starImports).toEqual([{ module: 'star', level: 0 }]);
  });

  it('keeps the last definition in source order, wherever the statements nest', () => {
    const summary = summarize([
      'for flag in flags:',
      '    def f(): pass',
      'else:',
      '    def f(): pass',
      'with ctx:',
      '    class K: pass',
      'try:',
      '    class K: pass',
      'finally:',
      '    pass',
    ]);
    expect(summary.bindings.get('f')?.definition?.line).toBe(4);
    expect(summary.bindings.get('K')?.definition?.line).toBe(8);
  });

  it('reads a literal __all__, extended by +=, and gives up on a computed one', () => {
    expect(summarize(['__all__ = ["a", \'b\']', '__all__ += ("c",)']).exportedNames).toEqual(['a', 'b', 'c']);
    expect(summarize(['__all__ = ["a"] + other.__all__']).exportedNames).toBeNull();
    expect(summarize(['x = 1']).exportedNames).toBeNull();
  });
});

describe('summarizeModule: classes', () => {
  it('keeps bases that are names or attribute chains, and the names bound in the body', () => {
    const summary = summarize([
      'class K(Base, models.Record, Generic[T], metaclass=Meta):',
      '    size = 1',
      '    def method(self):',
      '        pass',
      '    class Inner(Base):',
      '        pass',
    ]);
    const k = summary.classes.find((cls) => cls.qualname === 'K');
    expect(k?.bases).toEqual([
      { root: 'Base', attributes: [] },
      { root: 'models', attributes: ['Record'] },
      { root: 'Generic', attributes: [] },
    ]);
    expect(k?.members.get('size')).toEqual({ definition: null, imports: [] });
    expect(k?.members.get('method')?.definition).toEqual({
      file: 'pkg/mod.py',
      qualname: 'K.method',
      kind: 'method',
      line: 3,
    });
    expect(k?.members.get('Inner')?.definition).toEqual({
      file: 'pkg/mod.py',
      qualname: 'K.Inner',
      kind: 'class',
      line: 5,
    });
    expect(summary.classes.map((cls) => [cls.qualname, cls.line, cls.endLine])).toEqual([
      ['K', 1, 6],
      ['K.Inner', 5, 6],
    ]);
  });
});

describe('summarizeModule: function references', () => {
  it('tells self, cls and plain functions apart', () => {
    const summary = summarize([
      'class C:',
      '    def method(this): pass',
      '    @classmethod',
      '    def make(cls): pass',
      '    def __new__(cls): pass',
      '    @staticmethod',
      '    def util(x): pass',
      'def free(self): pass',
    ]);
    expect(summary.functions.map((fn) => [fn.qualname, fn.receiver])).toEqual([
      ['C.method', 'self'],
      ['C.make', 'cls'],
      ['C.__new__', 'cls'],
      ['C.util', null],
      ['free', null],
    ]);
  });

  it('keeps free names, imports, receivers and super, and drops locals of every kind', () => {
    const summary = summarize([
      'class C(Base):',
      '    def run(self, arg, *rest, flag=default_flag):',
      '        from .tools import tool',
      '        local = arg',
      '        total = [x for x in rest if keep(x)]',
      '        squares = {k: k * k for k in source()}',
      '        (n := size())',
      '        with opener() as handle, lock:',
      '            pass',
      '        for index, (a, b) in pairs:',
      '            pass',
      '        try:',
      '            tool()',
      '        except Problem as error:',
      '            raise error',
      '        callback = lambda value: value + offset',
      '        def nested(p):',
      '            return p + local + helper',
      '        return self.check(local), super().run(), type(self).kind, f"{fmt.name}", n, squares',
    ]);
    expect(describeReferences(functionNamed(summary, 'C.run').references)).toEqual([
      'keep:free',
      'source:free',
      'size:free',
      'opener:free',
      'lock:free',
      'pairs:free',
      'tool:import',
      'Problem:free',
      'offset:free',
      'helper:free',
      'self.check:receiver(self)',
      'super().run:super',
      'type(self).kind:receiver(self)',
      'fmt.name:free',
    ]);
  });

  it('follows global declarations and lets a walrus in a comprehension bind in the function', () => {
    const summary = summarize([
      'def f():',
      '    global counter',
      '    counter = counter + 1',
      '    found = [last := item for item in items()]',
      '    return last',
    ]);
    expect(describeReferences(functionNamed(summary, 'f').references)).toEqual(['counter:free(global)', 'items:free']);
    expect([...functionNamed(summary, 'f').bindings.keys()].sort()).toEqual(['found', 'last']);
  });

  it('does not let code in a method see its class body, but lets the class body see itself', () => {
    const summary = summarize(
      ['class C:', '    size = 1', '    doubled = size * 2', '    def m(self):', '        return size'].concat([
        'def outer():',
        '    class D:',
        '        x = 1',
        '        y = x',
        '    return D',
      ]),
    );
    expect(describeReferences(functionNamed(summary, 'C.m').references)).toEqual(['size:free']);
    expect(describeReferences(functionNamed(summary, 'outer').references)).toEqual([]);
  });

  it('binds match captures and keeps value patterns and class patterns as loads', () => {
    const summary = summarize([
      'def f(v):',
      '    match v:',
      '        case Point(x=a, y=[b, *rest]) if a > limit:',
      '            return a, b, rest',
      '        case Color.RED | {"k": c}:',
      '            return c',
      '        case str() as s:',
      '            return s',
    ]);
    expect(describeReferences(functionNamed(summary, 'f').references)).toEqual([
      'Point:free',
      'limit:free',
      'Color.RED:free',
      'str:free',
    ]);
  });

  it('keeps references only for the functions asked for, and bindings for all', () => {
    const summary = summarize(
      ['def kept():', '    return helper()', 'def dropped(x):', '    return helper()'],
      (qualname) => qualname === 'kept',
    );
    expect(describeReferences(functionNamed(summary, 'kept').references)).toEqual(['helper:free']);
    expect(functionNamed(summary, 'dropped').references).toEqual([]);
    expect([...functionNamed(summary, 'dropped').bindings.keys()]).toEqual(['x']);
  });

  it('records the line of each reference and the def line and last code line of each function', () => {
    const summary = summarize([
      '@decorate',
      'def f():',
      '    """Doc."""',
      '    a = 1',
      '    return helper(',
      '        a)',
      '    # trailing comment',
    ]);
    const fn = functionNamed(summary, 'f');
    expect([fn.line, fn.endLine]).toEqual([2, 6]);
    expect(fn.references.map((reference) => [reference.rootText, reference.line])).toEqual([['helper', 5]]);
  });
});
