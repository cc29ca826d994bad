import escomplex from 'escomplex';
import { loadPythonParser } from '@repocod/python';
import { describe, expect, it } from 'vitest';
import { maintainabilityIndex } from './maintainability.js';
import { measureComplexity } from './measure-complexity.js';
import { RADON_5_1_SETTINGS } from './python-syntax.js';
import { pythonWalker } from './radon-walker.js';

describe('maintainabilityIndex', () => {
  it('is escomplex module MI for a module of one function', async () => {
    const parser = await loadPythonParser();
    const text =
      'def f(xs):\n    """Doc."""\n    total = 0\n    for x in xs:\n        if x > 2 and x < 9:\n            total ' +
      '+= ' +
      'x * 2\n    return total\n';
    const tree = parser.parse(text);
    if (tree === null) throw new Error('no tree');
    const ours = measureComplexity(tree, text).get(1);
    const report = escomplex.analyse({ loc: { start: { line: 1 }, end: { line: 7 } }, tree, text }, pythonWalker, {
      ...RADON_5_1_SETTINGS,
    });
    tree.delete();
    expect(ours?.cyclomatic).toBe(4);
    expect(ours?.maintainability).toBeCloseTo(report.maintainability, 10);
    expect(ours?.halsteadVolume).toBeGreaterThan(0);
    expect(ours?.logicalLines).toBe(6);
  });

  it('caps at 171 and rescales with newmi', () => {
    expect(maintainabilityIndex(0, 1, 1, false)).toBe(171);
    expect(maintainabilityIndex(0, 1, 1, true)).toBe(100);
    expect(maintainabilityIndex(1e9, 50, 500, true)).toBe(0);
  });
});
