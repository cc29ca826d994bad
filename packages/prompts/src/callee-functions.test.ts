import { describe, expect, it } from 'vitest';
import { calleeFunctions } from './callee-functions.js';
import type { CorpusFunction } from './function-corpus.js';

const fn = (file: string, qualname: string, defLine: number): CorpusFunction => ({
  file,
  qualname,
  defLine,
  start: defLine,
  end: defLine + 1,
  text: `def ${qualname.split('.').at(-1)}(): ...`,
  isTestCode: false,
});

describe('calleeFunctions', () => {
  const helper = fn('pkg/util.py', 'helper', 3);
  const init = fn('pkg/shapes.py', 'Shape.__init__', 12);
  const corpus = { functions: [helper, init, fn('pkg/shapes.py', 'Other.__init__', 30)], leftOut: [] };

  it('gives each callee once, in the order of the calls, and a called class its own __init__', () => {
    const callees = calleeFunctions(corpus, [
      { file: 'pkg/shapes.py', qualname: 'Shape', definitionLine: 10 },
      { file: 'pkg/util.py', qualname: 'helper', definitionLine: 3 },
      { file: 'pkg/util.py', qualname: 'helper', definitionLine: 3 },
    ]);
    expect(callees.functions).toEqual([init, helper]);
    expect(callees.notGiven).toEqual([]);
  });

  it('names the calls with nothing to give: a class without an __init__ of its own, a function left out', () => {
    const bare = { file: 'pkg/shapes.py', qualname: 'Bare', definitionLine: 40 };
    const inside = { file: 'pkg/box.py', qualname: 'Box.area.<locals>.scaled', definitionLine: 12 };
    const callees = calleeFunctions(corpus, [bare, inside, bare]);
    expect(callees.functions).toEqual([]);
    expect(callees.notGiven).toEqual([bare, inside]);
  });
});
