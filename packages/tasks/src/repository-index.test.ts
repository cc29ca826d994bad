import { loadPythonParser } from '@repocod/python';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Parser } from 'web-tree-sitter';
import type { RepositoryIndex } from './repository-index.js';
import { buildRepositoryIndex } from './repository-index.js';

let parser: Parser;
beforeAll(async () => {
  parser = await loadPythonParser();
});

function indexOf(files: Record<string, string>): RepositoryIndex {
  return buildRepositoryIndex(parser, new Map(Object.entries(files)));
}

/** Where a module-level name of `file` resolves, as `file:line qualname`, `module path` or null. */
function whereIs(index: RepositoryIndex, file: string, name: string): string | null {
  const found = index.lookupInModule(file, name);
  if (found === null) return null;
  const resolution = found.resolution;
  return resolution.kind === 'module'
    ? `module ${resolution.module.path}`
    : `${resolution.site.file}:${resolution.site.line} ${resolution.site.qualname}`;
}

describe('buildRepositoryIndex', () => {
  it('indexes only .py paths, in order', () => {
    const index = indexOf({ 'b.py': '', 'a.py': '', 'README.md': '# not python' });
    expect(index.files).toEqual(['a.py', 'b.py']);
  });

  it('keeps references only for the functions the filter keeps', () => {
    const files = { 'm.py': 'def a():\n    return helper()\n\ndef b():\n    return helper()\n' };
    const index = buildRepositoryIndex(parser, new Map(Object.entries(files)), {
      keepReferences: (fn) => fn.qualname === 'a',
    });
    expect(index.functionAt('m.py', 'a', 1)?.references).toHaveLength(1);
    expect(index.functionAt('m.py', 'b', 4)?.references).toEqual([]);
  });
});

describe('RepositoryIndex: names and imports', () => {
  it('resolves `from . import sub` inside the package __init__ to the submodule', () => {
    const index = indexOf({ 'pkg/__init__.py': 'from . import reports\n', 'pkg/reports.py': 'def f():\n    pass\n' });
    expect(whereIs(index, 'pkg/__init__.py', 'reports')).toBe('module pkg/reports');
  });

  it('follows star imports: __all__ when literal, else the public names', () => {
    const index = indexOf({
      'pkg/__init__.py': 'from .listed import *\nfrom .open import *\n',
      'pkg/listed.py': '__all__ = ["shown"]\n\ndef shown():\n    pass\n\ndef hidden():\n    pass\n',
      'pkg/open.py': 'def public():\n    pass\n\ndef _private():\n    pass\n',
      'app.py': 'from pkg import shown, hidden, public, _private\n',
    });
    expect(whereIs(index, 'app.py', 'shown')).toBe('pkg/listed.py:3 shown');
    expect(whereIs(index, 'app.py', 'hidden')).toBeNull();
    expect(whereIs(index, 'app.py', 'public')).toBe('pkg/open.py:1 public');
    expect(whereIs(index, 'app.py', '_private')).toBeNull();
  });

  it('resolves nothing for a name bound to a value or to a third-party import', () => {
    const index = indexOf({ 'm.py': 'import numpy as np\nfrom os import path\nVALUE = 1\n' });
    expect(whereIs(index, 'm.py', 'np')).toBeNull();
    expect(whereIs(index, 'm.py', 'path')).toBeNull();
    expect(whereIs(index, 'm.py', 'VALUE')).toBeNull();
    expect(whereIs(index, 'm.py', 'print')).toBeNull();
  });

  it('falls back to the next import when the first does not reach the repository', () => {
    const index = indexOf({
      'pkg/__init__.py': '',
      'pkg/compat.py': 'def speedup():\n    pass\n',
      'pkg/m.py': 'try:\n    from fastlib import speedup\nexcept ImportError:\n    from .compat import speedup\n',
    });
    expect(whereIs(index, 'pkg/m.py', 'speedup')).toBe('pkg/compat.py:1 speedup');
  });

  it('walks attributes through modules and classes as far as the repository defines them', () => {
    const index = indexOf({
      'pkg/__init__.py': '',
      'pkg/shapes.py': 'class Shape:\n    sides = 0\n    def area(self):\n        pass\n',
      'app.py': 'import pkg.shapes\n',
    });
    const root = index.lookupInModule('app.py', 'pkg');
    expect(root?.via).toBe('import');
    const walk = (attributes: string[]): [string, number] | null => {
      const found = root === null ? null : index.walkAttributes(root.resolution, attributes);
      return found === null ? null : [found.site.qualname, found.consumed];
    };
    expect(walk(['shapes', 'Shape', 'area', '__doc__'])).toEqual(['Shape.area', 3]);
    expect(walk(['shapes', 'Shape', 'sides'])).toEqual(['Shape', 2]);
    expect(walk(['shapes', 'missing'])).toBeNull();
  });
});

describe('RepositoryIndex: classes', () => {
  it('computes the MRO over in-repository bases across files, skipping other bases', () => {
    const index = indexOf({
      'pkg/__init__.py': '',
      'pkg/errors.py': 'class AppError(Exception):\n    pass\n',
      'pkg/base.py': 'from .errors import AppError as _Base\n\nclass Mid(_Base):\n    pass\n',
      'pkg/leaf.py':
        'from pkg import base\nfrom .errors import AppError\n\nclass Leaf(ValueError, base.Mid):\n    pass\n',
    });
    const leaf = { file: 'pkg/leaf.py', qualname: 'Leaf', kind: 'class' as const, line: 4 };
    expect(index.mro(leaf).map((site) => `${site.file}:${site.qualname}`)).toEqual([
      'pkg/leaf.py:Leaf',
      'pkg/base.py:Mid',
      'pkg/errors.py:AppError',
    ]);
  });

  it('resolves the bases of a nested class in the outer class body, and survives a class deriving from itself', () => {
    const index = indexOf({
      'm.py':
        'class Outer:\n    class Base:\n        def m(self):\n            pass\n    class Inner(Base):\n        ' +
        'pass\n\nclass Loop(Loop):\n    pass\n',
    });
    const inner = { file: 'm.py', qualname: 'Outer.Inner', kind: 'class' as const, line: 5 };
    expect(index.classMember(inner, 'm')).toEqual({
      kind: 'definition',
      site: { file: 'm.py', qualname: 'Outer.Base.m', kind: 'method', line: 3 },
    });
    expect(index.mro({ file: 'm.py', qualname: 'Loop', kind: 'class', line: 8 })).toHaveLength(1);
  });
});
