import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadPythonParser } from '@repocod/python';
import { describe, expect, it } from 'vitest';
import { measureFileComplexity } from './analyse-python-file.js';
import { RADON_5_1_SETTINGS } from './python-syntax.js';
import { compareComplexity, findRadon, runRadon } from '@repocod/testkit';
import { PROJECT_ROOT } from './testing/test-support.js';

/** Each case: a source and the complexity radon 5.1.0 gives its function `f` (checked below against radon itself). */
const CASES: readonly (readonly [string, string, number])[] = [
  ['straight line', 'def f():\n    return 1\n', 1],
  ['if / elif / else', 'def f(x):\n    if x:\n        pass\n    elif y:\n        pass\n    else:\n        pass\n', 3],
  ['conditional expression', 'def f(x):\n    return 1 if x else 2\n', 2],
  ['boolean chain counts each operator', 'def f(a, b, c):\n    return a and b and c or not a\n', 4],
  ['for with else', 'def f(xs):\n    for x in xs:\n        pass\n    else:\n        pass\n', 3],
  ['while without else', 'def f():\n    while g():\n        pass\n', 2],
  ['async for', 'async def f(xs):\n    async for x in xs:\n        pass\n', 2],
  [
    'try: handlers and else count, finally does not',
    'def f():\n    try:\n        a()\n    except A:\n        pass\n    except B:\n        pass\n    else:\n        ' +
      'pass\n    finally:\n        pass\n',
    4,
  ],
  [
    'try/except* (TryStar) is not counted by radon 5.1.0',
    'def f():\n    try:\n        a()\n    except* A:\n        pass\n    except* B:\n        pass\n',
    1,
  ],
  ['comprehension: each for and if', 'def f(xs):\n    return [x for x in xs if x if x > 1 for y in x]\n', 5],
  ['with is not counted', 'def f():\n    with a() as b, c():\n        pass\n', 1],
  ['assert counts once, its contents never', 'def f(x):\n    assert x and [y for y in x if y], (1 if x else 2)\n', 2],
  ['lambda body counts for the enclosing function', 'def f():\n    return lambda x: 1 if x else (x or 2)\n', 3],
  [
    'decorators and defaults are counted by nobody',
    '@d(1 if a else 2)\ndef f(x=(a or b), y=[i for i in z if i]):\n    return x\n',
    1,
  ],
  [
    'nested def adds nothing to its parent',
    'def f(x):\n    def g():\n        if x:\n            pass\n    return g\n',
    1,
  ],
  [
    'class body inside a function adds nothing',
    'def f():\n    class K(A if c else B):\n        v = 1 if c else 2\n        def m(self):\n            return a or ' +
      'b\n    return K\n',
    1,
  ],
  [
    'match adds nothing in radon 5.1.0, a guard neither',
    'def f(x):\n    match x:\n        case 1 if x:\n            pass\n        case _:\n            return 1 if x ' +
      'else ' +
      '2\n',
    2,
  ],
  ['f-string interpolations are visited', 'def f(x):\n    return f"{1 if x else 2}{x and 3}"\n', 3],
  ['walrus and generator expression', 'def f(xs):\n    return any((y := x) for x in xs if x)\n', 3],
];

describe('radon-exact walker on the rules one by one', () => {
  it.each(CASES)('%s', async (_name, source, expected) => {
    const parser = await loadPythonParser();
    const measured = measureFileComplexity(parser, new TextEncoder().encode(source), 'case.py');
    const f = measured.functions.find((fn) => fn.record.name === 'f');
    expect(f?.complexity.cyclomatic).toBe(expected);
  });

  it('the expectations above are radon 5.1.0 figures', { timeout: 120_000 }, async () => {
    const root = mkdtempSync(join(tmpdir(), 'repocod-radon-'));
    const files = CASES.map((_, index) => `case_${index}.py`);
    for (const [index, [, source]] of CASES.entries()) writeFileSync(join(root, `case_${index}.py`), source);
    const radon = (await runRadon(findRadon(PROJECT_ROOT), root, files)).filter((fn) => fn.name === 'f');
    expect(radon.map((fn) => [fn.file, fn.cyclomatic])).toEqual(files.map((file, index) => [file, CASES[index]?.[2]]));
  });

  it('methods and closures get their own figures, named by their def line', async () => {
    const parser = await loadPythonParser();
    const source =
      'class A:\n    def m(self):\n        def inner():\n            return a or b\n        return inner if self ' +
      'else ' +
      'None\n';
    const measured = measureFileComplexity(parser, new TextEncoder().encode(source), 'm.py');
    expect(
      measured.functions.map((fn) => [fn.record.qualname, fn.complexity.defLine, fn.complexity.cyclomatic]),
    ).toEqual([
      ['A.m', 2, 2],
      ['A.m.<locals>.inner', 3, 2],
    ]);
  });

  it('switchcase counts match cases by radon 6 rule when asked', async () => {
    const parser = await loadPythonParser();
    const source =
      'def f(x):\n    match x:\n        case 1:\n            pass\n        case [a, b]:\n            pass\n        ' +
      'case _:\n            pass\n';
    const bytes = new TextEncoder().encode(source);
    const radon5 = measureFileComplexity(parser, bytes, 'm.py').functions[0]?.complexity.cyclomatic;
    const radon6 = measureFileComplexity(parser, bytes, 'm.py', {
      settings: { ...RADON_5_1_SETTINGS, switchcase: true },
    }).functions[0]?.complexity.cyclomatic;
    expect([radon5, radon6]).toEqual([1, 3]);
  });
});

describe('compareComplexity', () => {
  it('reports mismatches and functions only radon sees', () => {
    const radon = [
      { file: 'a.py', name: 'f', defLine: 1, cyclomatic: 2 },
      { file: 'a.py', name: 'g', defLine: 5, cyclomatic: 1 },
      { file: 'b.py', name: 'h', defLine: 1, cyclomatic: 1 },
    ];
    const ours = [
      { file: 'a.py', name: 'f', defLine: 1, cyclomatic: 3 },
      { file: 'a.py', name: 'g', defLine: 5, cyclomatic: 1 },
    ];
    const comparison = compareComplexity(radon, ours);
    expect(comparison.compared).toBe(2);
    expect(comparison.onlyRadon.map((fn) => fn.name)).toEqual(['h']);
    expect(comparison.mismatches).toEqual([{ file: 'a.py', name: 'f', defLine: 1, ours: 3, radon: 2 }]);
  });
});

describe('deeply nested code', () => {
  it('measures a 20,000-term boolean chain without running out of stack', async () => {
    const parser = await loadPythonParser();
    const terms = Array.from({ length: 20_000 }, (_, index) => `x${index}`).join(' and ');
    const measured = measureFileComplexity(
      parser,
      new TextEncoder().encode(`def f():\n    return ${terms}\n`),
      'deep.py',
    );
    expect(measured.issue).toBeNull();
    expect(measured.functions[0]?.complexity.cyclomatic).toBe(20_000);
  });
});
