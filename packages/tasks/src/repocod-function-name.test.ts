import { describe, expect, it } from 'vitest';
import { repocodFunctionNames } from './repocod-function-name.js';

describe('repocodFunctionNames', () => {
  it('names a method Class.method and a module-level function by its name, as REPOCOD does', () => {
    const names = repocodFunctionNames([
      { instanceId: 'a', file: 'seaborn/_core/scales.py', qualname: 'Continuous.label' },
      { instanceId: 'b', file: 'src/datasets/load.py', qualname: 'load_dataset' },
      { instanceId: 'c', file: 'pkg/mod.py', qualname: 'Outer.Inner.method' },
    ]);
    expect([...names.values()]).toEqual(['Continuous.label', 'load_dataset', 'Inner.method']);
  });

  it("prefixes names two tasks share with the file's basename, then its folders, until they differ", () => {
    const names = repocodFunctionNames([
      { instanceId: 'grid', file: 'seaborn/axisgrid.py', qualname: 'PairGrid.__init__' },
      { instanceId: 'other', file: 'seaborn/_core/axisgrid.py', qualname: 'PairGrid.__init__' },
      { instanceId: 'run', file: 'sphinx/directives/__init__.py', qualname: 'ObjectDescription.run' },
      { instanceId: 'run2', file: 'sphinx/domains/__init__.py', qualname: 'ObjectDescription.run' },
      { instanceId: 'alone', file: 'sphinx/util/nodes.py', qualname: '_make_id' },
    ]);
    expect(Object.fromEntries(names)).toEqual({
      grid: 'seaborn.axisgrid.PairGrid.__init__',
      other: '_core.axisgrid.PairGrid.__init__',
      run: 'directives.__init__.ObjectDescription.run',
      run2: 'domains.__init__.ObjectDescription.run',
      alone: '_make_id',
    });
  });

  it('stops when the paths run out: the same function twice keeps one name', () => {
    const names = repocodFunctionNames([
      { instanceId: 'x', file: 'm.py', qualname: 'f' },
      { instanceId: 'y', file: 'm.py', qualname: 'f' },
    ]);
    expect([...names.values()]).toEqual(['m.f', 'm.f']);
  });
});
