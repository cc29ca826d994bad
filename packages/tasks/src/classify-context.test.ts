import type { FunctionRecord } from '@repocod/core';
import { isRepocodError } from '@repocod/core';
import { loadPythonParser, parsePythonText } from '@repocod/python';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Parser } from 'web-tree-sitter';
import type { ContextClassification } from './classify-context.js';
import { classifyContext } from './classify-context.js';
import { buildRepositoryIndex } from './repository-index.js';

let parser: Parser;
beforeAll(async () => {
  parser = await loadPythonParser();
});

/** Source lines joined, so that line numbers in the expectations can be read off the array index + 1. */
function py(...lines: string[]): string {
  return `${lines.join('\n')}\n`;
}

function recordOf(files: Record<string, string>, file: string, qualname: string): FunctionRecord {
  const parsed = parsePythonText(parser, files[file] ?? '', file);
  parsed.tree.delete();
  const found = parsed.functions.find((fn) => fn.qualname === qualname);
  if (found === undefined) throw new Error(`no function ${qualname} in ${file}`);
  return found;
}

function classify(files: Record<string, string>, file: string, qualname: string): ContextClassification {
  const index = buildRepositoryIndex(parser, new Map(Object.entries(files)));
  return classifyContext(index, recordOf(files, file, qualname));
}

describe('classifyContext: plain names (rule 1)', () => {
  it('counts a module-level function of the same file: file-level', () => {
    const files = {
      'pkg/mod.py': py(
        'def helper(x):', //
        '    return x',
        '',
        '',
        'def target(a):',
        '    """Doc."""',
        '    return helper(a)',
      ),
    };
    expect(classify(files, 'pkg/mod.py', 'target')).toEqual({
      level: 'file-level',
      dependencies: [
        { name: 'helper', kind: 'function', qualname: 'helper', file: 'pkg/mod.py', line: 1, via: 'local' },
      ],
    });
  });

  it('counts an instantiation and a bare reference to a class once, as a class (rule 4)', () => {
    const files = {
      'shapes.py': py(
        'class Point:', //
        '    pass',
        '',
        '',
        'def make(value):',
        '    """Doc."""',
        '    if isinstance(value, Point):',
        '        return value',
        '    return Point()',
      ),
    };
    expect(classify(files, 'shapes.py', 'make')).toEqual({
      level: 'file-level',
      dependencies: [{ name: 'Point', kind: 'class', qualname: 'Point', file: 'shapes.py', line: 1, via: 'local' }],
    });
  });

  it('gives the line of the def, not of its decorator, and names a method reached through its class', () => {
    const files = {
      'models.py': py(
        'class Item:', //
        '    @staticmethod',
        '    def parse(text):',
        '        return text',
        '',
        '',
        'def load(text):',
        '    """Doc."""',
        '    return Item.parse(text)',
      ),
    };
    expect(classify(files, 'models.py', 'load').dependencies).toEqual([
      { name: 'Item.parse', kind: 'method', qualname: 'Item.parse', file: 'models.py', line: 3, via: 'local' },
    ]);
  });

  it('resolves a free name of a nested function in the enclosing function first', () => {
    const files = {
      'mod.py': py(
        'def helper():', //
        '    return 0',
        '',
        'def outer():',
        '    def helper():',
        '        return 1',
        '    def inner():',
        '        """Doc."""',
        '        return helper()',
        '    return inner',
      ),
    };
    expect(classify(files, 'mod.py', 'outer.<locals>.inner').dependencies).toEqual([
      { name: 'helper', kind: 'function', qualname: 'outer.<locals>.helper', file: 'mod.py', line: 5, via: 'local' },
    ]);
  });

  it('does not let a method see the names of its class body', () => {
    const files = {
      'mod.py': py(
        'def helper():', //
        '    return 0',
        '',
        'class C:',
        '    def helper(self):',
        '        return 1',
        '',
        '    def run(self):',
        '        """Doc."""',
        '        return helper()',
      ),
    };
    expect(classify(files, 'mod.py', 'C.run').dependencies).toEqual([
      { name: 'helper', kind: 'function', qualname: 'helper', file: 'mod.py', line: 1, via: 'local' },
    ]);
  });
});

describe('classifyContext: imports (rule 2)', () => {
  it('follows `import a.b as m` then `m.f()`, and `import a.b` then `a.b.f()`: repo-level', () => {
    const files = {
      'a/__init__.py': '',
      'a/b.py': py('def f():', '    return 1'),
      'c.py': py(
        'import a.b as m', //
        'import a.b',
        '',
        'def target():',
        '    """Doc."""',
        '    return m.f() + a.b.f()',
      ),
    };
    expect(classify(files, 'c.py', 'target')).toEqual({
      level: 'repo-level',
      dependencies: [
        { name: 'a.b.f', kind: 'function', qualname: 'f', file: 'a/b.py', line: 1, via: 'import' },
        { name: 'm.f', kind: 'function', qualname: 'f', file: 'a/b.py', line: 1, via: 'import' },
      ],
    });
  });

  it('follows `from .m import f as g`', () => {
    const files = {
      'pkg/__init__.py': '',
      'pkg/m.py': py('X = 1', '', 'def f():', '    return X'),
      'pkg/user.py': py(
        'from .m import f as g', //
        '',
        'def target():',
        '    """Doc."""',
        '    return g()',
      ),
    };
    expect(classify(files, 'pkg/user.py', 'target').dependencies).toEqual([
      { name: 'g', kind: 'function', qualname: 'f', file: 'pkg/m.py', line: 3, via: 'import' },
    ]);
  });

  it('follows re-exports through __init__.py to the real definition, across a chain', () => {
    const files = {
      'pkg/__init__.py': py('from .api import run', 'from .impl import Thing'),
      'pkg/api.py': py('from ._impl import run'),
      'pkg/_impl.py': py('def run():', '    return 1'),
      'pkg/impl.py': py('class Thing:', '    pass'),
      'app.py': py(
        'from pkg import Thing, run', //
        '',
        'def target():',
        '    """Doc."""',
        '    return Thing(run())',
      ),
    };
    expect(classify(files, 'app.py', 'target')).toEqual({
      level: 'repo-level',
      dependencies: [
        { name: 'run', kind: 'function', qualname: 'run', file: 'pkg/_impl.py', line: 1, via: 'import' },
        { name: 'Thing', kind: 'class', qualname: 'Thing', file: 'pkg/impl.py', line: 1, via: 'import' },
      ],
    });
  });

  it('survives an import cycle that defines nothing', () => {
    const files = {
      'pkg/__init__.py': '',
      'pkg/a.py': py('from .b import x'),
      'pkg/b.py': py('from .a import x'),
      'pkg/user.py': py('from .a import x', '', 'def target():', '    """Doc."""', '    return x()'),
    };
    expect(classify(files, 'pkg/user.py', 'target')).toEqual({ level: 'self-contained', dependencies: [] });
  });

  it('follows `from ..pkg import x` and `from .. import pkg` then `pkg.x`', () => {
    const files = {
      'top/__init__.py': '',
      'top/pkg/__init__.py': py('def x():', '    return 1'),
      'top/sub/__init__.py': '',
      'top/sub/user.py': py(
        'from ..pkg import x', //
        'from .. import pkg',
        '',
        'def target():',
        '    """Doc."""',
        '    return x() + pkg.x()',
      ),
    };
    expect(classify(files, 'top/sub/user.py', 'target').dependencies).toEqual([
      { name: 'pkg.x', kind: 'function', qualname: 'x', file: 'top/pkg/__init__.py', line: 1, via: 'import' },
      { name: 'x', kind: 'function', qualname: 'x', file: 'top/pkg/__init__.py', line: 1, via: 'import' },
    ]);
  });

  it('counts an import made inside the target, and finds a package under src/', () => {
    const files = {
      'src/lib/__init__.py': '',
      'src/lib/tools.py': py('def tool():', '    return 1'),
      'src/lib/main.py': py(
        'def target():', //
        '    """Doc."""',
        '    from lib.tools import tool',
        '    return tool()',
      ),
    };
    expect(classify(files, 'src/lib/main.py', 'target')).toEqual({
      level: 'repo-level',
      dependencies: [
        { name: 'tool', kind: 'function', qualname: 'tool', file: 'src/lib/tools.py', line: 1, via: 'import' },
      ],
    });
  });

  it('counts a name imported at module level that lives in the same file as file-level', () => {
    const files = {
      'pkg/__init__.py': '',
      'pkg/mod.py': py(
        'from pkg.mod import helper as alias', //
        '',
        'def helper():',
        '    return 1',
        '',
        'def target():',
        '    """Doc."""',
        '    return alias()',
      ),
    };
    expect(classify(files, 'pkg/mod.py', 'target')).toEqual({
      level: 'file-level',
      dependencies: [
        { name: 'alias', kind: 'function', qualname: 'helper', file: 'pkg/mod.py', line: 3, via: 'import' },
      ],
    });
  });
});

describe('classifyContext: self, cls and super (rule 3)', () => {
  it('resolves self.m() to a method of the same class: file-level', () => {
    const files = {
      'w.py': py(
        'class Warehouse:', //
        '    def locate(self, sku):',
        '        return []',
        '',
        '    def receive(self, sku):',
        '        """Doc."""',
        '        return self.locate(sku), self.bins',
      ),
    };
    expect(classify(files, 'w.py', 'Warehouse.receive')).toEqual({
      level: 'file-level',
      dependencies: [
        { name: 'self.locate', kind: 'method', qualname: 'Warehouse.locate', file: 'w.py', line: 2, via: 'self' },
      ],
    });
  });

  it('resolves self.m() to a method inherited from an in-repository base in another file: repo-level', () => {
    const files = {
      'pkg/__init__.py': '',
      'pkg/base.py': py('class Base:', '    def helper(self):', '        return 1'),
      'pkg/child.py': py(
        'from .base import Base', //
        '',
        'class Child(Base):',
        '    def run(self):',
        '        """Doc."""',
        '        return self.helper()',
      ),
    };
    expect(classify(files, 'pkg/child.py', 'Child.run')).toEqual({
      level: 'repo-level',
      dependencies: [
        { name: 'self.helper', kind: 'method', qualname: 'Base.helper', file: 'pkg/base.py', line: 2, via: 'self' },
      ],
    });
  });

  it('takes the first definition in MRO order, and a base reached as module.Class', () => {
    const files = {
      'pkg/__init__.py': '',
      'pkg/bases.py': py(
        'class Root:', //
        '    def m(self):',
        '        return 0',
        '',
        'class Left(Root):',
        '    pass',
        '',
        'class Right(Root):',
        '    def m(self):',
        '        return 2',
      ),
      'pkg/child.py': py(
        'from . import bases', //
        '',
        'class Child(bases.Left, bases.Right):',
        '    def run(self):',
        '        """Doc."""',
        '        return self.m()',
      ),
    };
    // C3: Child, Left, Right, Root: Right.m comes before Root.m although Left derives from Root.
    expect(classify(files, 'pkg/child.py', 'Child.run').dependencies).toEqual([
      { name: 'self.m', kind: 'method', qualname: 'Right.m', file: 'pkg/bases.py', line: 9, via: 'self' },
    ]);
  });

  it('resolves super().m() after the class itself, and super(C, self).m() too', () => {
    const files = {
      'k.py': py(
        'class A:', //
        '    def m(self):',
        '        return 1',
        '',
        'class B(A):',
        '    def m(self):',
        '        """Doc."""',
        '        return super().m() + super(B, self).m()',
      ),
    };
    expect(classify(files, 'k.py', 'B.m')).toEqual({
      level: 'file-level',
      dependencies: [
        { name: 'super().m', kind: 'method', qualname: 'A.m', file: 'k.py', line: 2, via: 'super' },
        { name: 'super(B, self).m', kind: 'method', qualname: 'A.m', file: 'k.py', line: 2, via: 'super' },
      ],
    });
  });

  it('resolves cls.m() in a classmethod, and not a class attribute that is a value', () => {
    const files = {
      'r.py': py(
        'class Record:', //
        '    fields = ()',
        '',
        '    @classmethod',
        '    def build(cls):',
        '        return cls()',
        '',
        '    @classmethod',
        '    def from_dict(cls, data):',
        '        """Doc."""',
        '        return cls.build() if cls.fields else cls()',
      ),
    };
    expect(classify(files, 'r.py', 'Record.from_dict').dependencies).toEqual([
      { name: 'cls.build', kind: 'method', qualname: 'Record.build', file: 'r.py', line: 5, via: 'cls' },
    ]);
  });

  it("resolves self in a closure to the enclosing method's class", () => {
    const files = {
      'c.py': py(
        'class Registry:', //
        '    def add(self, key):',
        '        pass',
        '',
        '    def register(self, key):',
        '        def decorator(func):',
        '            """Doc."""',
        '            self.add(key)',
        '            return func',
        '        return decorator',
      ),
    };
    expect(classify(files, 'c.py', 'Registry.register.<locals>.decorator').dependencies).toEqual([
      { name: 'self.add', kind: 'method', qualname: 'Registry.add', file: 'c.py', line: 2, via: 'self' },
    ]);
  });

  it('resolves a property read through self.prop to the getter', () => {
    const files = {
      's.py': py(
        'class Stock:', //
        '    @property',
        '    def available(self):',
        '        return 1',
        '',
        '    @available.setter',
        '    def available(self, value):',
        '        pass',
        '',
        '    def reserve(self, qty):',
        '        """Doc."""',
        '        return qty <= self.available',
      ),
    };
    expect(classify(files, 's.py', 'Stock.reserve').dependencies).toEqual([
      { name: 'self.available', kind: 'method', qualname: 'Stock.available', file: 's.py', line: 3, via: 'self' },
    ]);
  });

  it('stops at a class attribute that hides a base method (`__hash__ = None`)', () => {
    const files = {
      'h.py': py(
        'class Base:', //
        '    def __hash__(self):',
        '        return 1',
        '',
        'class Child(Base):',
        '    __hash__ = None',
        '',
        '    def key(self):',
        '        """Doc."""',
        '        return self.__hash__',
      ),
    };
    expect(classify(files, 'h.py', 'Child.key')).toEqual({ level: 'self-contained', dependencies: [] });
  });
});

describe('classifyContext: what never counts (rules 5 and 6)', () => {
  it('ignores parameters, locals, nested definitions and every kind of bound variable', () => {
    const helpers = [
      'helper',
      'item',
      'inner',
      'total',
      'handle',
      'exc',
      'x',
      'n',
      'y',
      'Nested',
      'key',
      'first',
      'rest',
    ];
    const files = {
      'mod.py': py(
        ...helpers.map((name) => `def ${name}(): pass`),
        '',
        'def target(helper, *rest, key=None, **kw):',
        '    """Doc."""',
        '    item = helper()',
        '    def inner():',
        '        return item',
        '    class Nested:',
        '        pass',
        '    for total in rest:',
        '        pass',
        '    with open(key) as handle:',
        '        pass',
        '    try:',
        '        pass',
        '    except ValueError as exc:',
        '        print(exc)',
        '    values = [x for x in rest] + [(n := 1)] + list(map(lambda y: y, rest))',
        '    first, *others = rest',
        '    return inner(), Nested(), total, handle, n, first',
      ),
    };
    expect(classify(files, 'mod.py', 'target')).toEqual({ level: 'self-contained', dependencies: [] });
  });

  it('ignores the standard library and third-party packages', () => {
    const files = {
      'mod.py': py(
        'import os', //
        'import numpy as np',
        'from collections import OrderedDict',
        '',
        'def target(path):',
        '    """Doc."""',
        '    return os.path.join(path, "x"), np.array([1]), OrderedDict(), len(path)',
      ),
    };
    expect(classify(files, 'mod.py', 'target')).toEqual({ level: 'self-contained', dependencies: [] });
  });

  it('ignores recursion, directly and through self', () => {
    const files = {
      'mod.py': py(
        'def fact(n):', //
        '    """Doc."""',
        '    return 1 if n < 2 else n * fact(n - 1)',
        '',
        'class Tree:',
        '    def size(self):',
        '        """Doc."""',
        '        return 1 + sum(child.size() for child in self.children) + self.size()',
      ),
    };
    expect(classify(files, 'mod.py', 'fact')).toEqual({ level: 'self-contained', dependencies: [] });
    expect(classify(files, 'mod.py', 'Tree.size')).toEqual({ level: 'self-contained', dependencies: [] });
  });

  it('ignores names only in the docstring, in comments, in strings, in the signature or decorators', () => {
    const files = {
      'mod.py': py(
        'def helper():', //
        '    return 1',
        '',
        '@helper',
        'def target(value=helper()) -> helper:',
        '    """Call helper() first.',
        '',
        '    See :func:`helper`.',
        '    """',
        '    # helper() is not called here',
        '    return "helper"',
      ),
    };
    expect(classify(files, 'mod.py', 'target')).toEqual({ level: 'self-contained', dependencies: [] });
  });

  it('takes the solution from the line after the signature when there is no docstring', () => {
    const files = {
      'mod.py': py(
        'def helper():', //
        '    return 1',
        '',
        'def target(',
        '    value=helper(),',
        '):',
        '    return helper()',
      ),
    };
    expect(classify(files, 'mod.py', 'target').dependencies).toEqual([
      { name: 'helper', kind: 'function', qualname: 'helper', file: 'mod.py', line: 1, via: 'local' },
    ]);
  });

  it('refuses a target that is not in the index with a RepocodError', () => {
    const files = { 'mod.py': py('def target():', '    """Doc."""', '    return 1') };
    const index = buildRepositoryIndex(parser, new Map(Object.entries(files)));
    const record = recordOf(files, 'mod.py', 'target');
    let caught: unknown;
    try {
      classifyContext(index, { ...record, file: 'other.py' });
    } catch (error) {
      caught = error;
    }
    expect(isRepocodError(caught) && caught.code === 'usage').toBe(true);
  });
});
