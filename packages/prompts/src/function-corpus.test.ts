import { loadPythonParser } from '@repocod/python';
import { describe, expect, it } from 'vitest';
import type { CorpusFunction } from './function-corpus.js';
import { taskCorpus } from './function-corpus.js';
import { BOX_BODY, boxRepository } from './testing/box-module.js';

describe('taskCorpus', async () => {
  const repository = boxRepository(await loadPythonParser());
  const target = { file: 'pkg/box.py', defLine: 6, bodyStart: BOX_BODY.start, bodyEnd: BOX_BODY.end };

  it('gives every function of the repository but the target, what its body defines, and copies of its body', () => {
    const corpus = taskCorpus(repository, target);
    expect(corpus.functions.map((fn) => `${fn.file}::${fn.qualname}`)).toEqual([
      'pkg/box.py::Box.perimeter',
      'pkg/box.py::copied_area.<locals>.scaled',
      'pkg/box.py::top',
      'pkg/shapes.py::circle_area',
    ]);
    expect(corpus.leftOut).toEqual([
      { file: 'pkg/box.py', qualname: 'Box.area', defLine: 6, reason: 'the target' },
      { file: 'pkg/box.py', qualname: 'Box.area.<locals>.scaled', defLine: 12, reason: 'inside the solution' },
      { file: 'pkg/box.py', qualname: 'copied_area', defLine: 21, reason: 'carries the solution' },
    ]);
    const solution = 'return scaled(self.width) * self.height';
    for (const fn of corpus.functions) expect(fn.text).not.toContain(solution);
    expect(repository.find((fn) => fn.qualname === 'copied_area')?.text).toContain(solution);
  });

  it('keeps a function that encloses the target without the removed lines, as the pre state has it', () => {
    const outer = [
      { file: 'm.py', qualname: 'outer', defLine: 1, start: 1, end: 5, isTestCode: false },
      { file: 'm.py', qualname: 'outer.<locals>.inner', defLine: 2, start: 2, end: 4, isTestCode: false },
    ];
    const text = ['def outer():', '    def inner():', '        """Inner."""', '        return 42', '    return inner']
      .map((line) => `${line}\n`)
      .join('');
    const lines = text.split(/(?<=\n)/);
    const functions = outer.map((fn) => ({
      ...fn,
      text: lines
        .slice(fn.start - 1, fn.end)
        .join('')
        .trimEnd(),
    }));
    const corpus = taskCorpus(functions, { file: 'm.py', defLine: 2, bodyStart: 4, bodyEnd: 4 });
    expect(corpus.functions.map((fn) => fn.text)).toEqual([
      'def outer():\n    def inner():\n        """Inner."""\n    return inner',
    ]);
  });

  it('matches a copy of the body line for line, not within a longer line', () => {
    const fn = (qualname: string, defLine: number, body: string) => ({
      file: 'n.py',
      qualname,
      defLine,
      start: defLine,
      end: defLine + 1,
      text: `def ${qualname}():\n    ${body}`,
      isTestCode: false,
    });
    const corpus = taskCorpus([fn('f', 1, 'return x'), fn('g', 4, 'return xs'), fn('h', 7, '  return x')], {
      file: 'n.py',
      defLine: 1,
      bodyStart: 2,
      bodyEnd: 2,
    });
    expect(corpus.functions.map((each) => each.qualname)).toEqual(['g']);
    expect(corpus.leftOut.map((each) => `${each.qualname} ${each.reason}`)).toEqual([
      'f the target',
      'h carries the solution',
    ]);
  });

  it("holds the test files as the task's test patch leaves them: its removed tests are left out", () => {
    const test = (qualname: string, defLine: number, body: string): CorpusFunction => ({
      file: 'tests/test_box.py',
      qualname,
      defLine,
      start: defLine,
      end: defLine + 1,
      text: `def ${qualname}():\n    ${body}`,
      isTestCode: true,
    });
    const withTests = [
      ...repository,
      test('test_area', 1, 'assert Box().area(2) == 8'),
      test('test_top', 4, 'assert top()'),
    ];
    const preState = [test('test_top', 1, 'assert top()')];
    const corpus = taskCorpus(withTests, target, new Map([['tests/test_box.py', preState]]));
    expect(corpus.functions.filter((fn) => fn.isTestCode)).toEqual(preState);
    expect(corpus.leftOut[0]).toEqual({
      file: 'tests/test_box.py',
      qualname: 'test_area',
      defLine: 1,
      reason: 'removed with the tests',
    });
    expect(() => taskCorpus(withTests, target, new Map([['pkg/box.py', []]]))).toThrow("the target's own file");
  });

  it('names a target that is not in the corpus', () => {
    expect(() => taskCorpus(repository, { ...target, defLine: 99 })).toThrow('pkg/box.py:99');
  });
});
