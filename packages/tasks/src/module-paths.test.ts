import { describe, expect, it } from 'vitest';
import { ModuleLocator, modulePathOf } from './module-paths.js';

describe('modulePathOf', () => {
  it('drops .py and __init__', () => {
    expect(modulePathOf('pkg/mod.py')).toBe('pkg/mod');
    expect(modulePathOf('pkg/sub/__init__.py')).toBe('pkg/sub');
    expect(modulePathOf('setup.py')).toBe('setup');
  });
});

describe('ModuleLocator', () => {
  const locator = new ModuleLocator([
    'pkg/__init__.py',
    'pkg/mod.py',
    'pkg/sub/__init__.py',
    'pkg/sub/deep.py',
    'pkg/ns/loose.py',
    'src/lib/__init__.py',
    'src/lib/core.py',
    'packages/python/plotly/plotly/__init__.py',
    'packages/python/plotly/plotly/graph.py',
    'scripts/run.py',
    'scripts/helpers.py',
    'tests/test_mod.py',
  ]);

  it('finds absolute modules at the root, under src/ and under a deeper source root', () => {
    expect(locator.locate({ module: 'pkg.mod', level: 0 }, 'tests/test_mod.py')).toEqual({
      path: 'pkg/mod',
      file: 'pkg/mod.py',
    });
    expect(locator.locate({ module: 'pkg', level: 0 }, 'tests/test_mod.py')).toEqual({
      path: 'pkg',
      file: 'pkg/__init__.py',
    });
    expect(locator.locate({ module: 'lib.core', level: 0 }, 'pkg/mod.py')).toEqual({
      path: 'src/lib/core',
      file: 'src/lib/core.py',
    });
    expect(locator.locate({ module: 'plotly.graph', level: 0 }, 'pkg/mod.py')).toEqual({
      path: 'packages/python/plotly/plotly/graph',
      file: 'packages/python/plotly/plotly/graph.py',
    });
  });

  it("finds a script's sibling module, as Python does with the script's folder on sys.path", () => {
    expect(locator.locate({ module: 'helpers', level: 0 }, 'scripts/run.py')).toEqual({
      path: 'scripts/helpers',
      file: 'scripts/helpers.py',
    });
    expect(locator.locate({ module: 'helpers', level: 0 }, 'pkg/mod.py')).toBeNull();
  });

  it('gives nothing for the standard library and third-party packages', () => {
    expect(locator.locate({ module: 'os.path', level: 0 }, 'pkg/mod.py')).toBeNull();
    expect(locator.locate({ module: 'numpy', level: 0 }, 'pkg/mod.py')).toBeNull();
  });

  it('resolves relative imports from a module and from a package __init__', () => {
    expect(locator.locate({ module: 'mod', level: 1 }, 'pkg/sub/__init__.py')).toBeNull();
    expect(locator.locate({ module: 'deep', level: 1 }, 'pkg/sub/__init__.py')).toEqual({
      path: 'pkg/sub/deep',
      file: 'pkg/sub/deep.py',
    });
    expect(locator.locate({ module: '', level: 1 }, 'pkg/mod.py')).toEqual({ path: 'pkg', file: 'pkg/__init__.py' });
    expect(locator.locate({ module: 'mod', level: 2 }, 'pkg/sub/deep.py')).toEqual({
      path: 'pkg/mod',
      file: 'pkg/mod.py',
    });
    expect(locator.locate({ module: 'x', level: 5 }, 'pkg/sub/deep.py')).toBeNull();
  });

  it('treats a folder of modules without __init__.py as a namespace package', () => {
    const namespace = locator.locate({ module: 'pkg.ns', level: 0 }, 'pkg/mod.py');
    expect(namespace).toEqual({ path: 'pkg/ns', file: null });
    expect(namespace === null ? null : locator.submodule(namespace, 'loose')).toEqual({
      path: 'pkg/ns/loose',
      file: 'pkg/ns/loose.py',
    });
  });

  it('prefers a package folder over a module file of the same name', () => {
    const both = new ModuleLocator(['a/b.py', 'a/b/__init__.py', 'a/__init__.py']);
    expect(both.find('a/b')).toEqual({ path: 'a/b', file: 'a/b/__init__.py' });
  });

  it('roots a file at the folder above its outermost package', () => {
    expect(locator.rootOf('pkg/sub/deep.py')).toBe('');
    expect(locator.rootOf('src/lib/core.py')).toBe('src');
    expect(locator.rootOf('tests/test_mod.py')).toBe('tests');
  });
});
