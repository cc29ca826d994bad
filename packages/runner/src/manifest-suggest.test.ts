import { describe, expect, it } from 'vitest';
import { closestName, didYouMean, editDistance } from './manifest-suggest.js';

describe('closestName', () => {
  it('finds typos and shortened names, and nothing for unrelated words', () => {
    const fields = ['name', 'url', 'base_commit', 'python', 'test_roots'];
    expect(closestName('base_comit', fields)).toBe('base_commit');
    expect(closestName('pyhton', fields)).toBe('python');
    expect(closestName('base', fields)).toBe('base_commit');
    expect(closestName('Test_Roots', fields)).toBe('test_roots');
    expect(closestName('timeout', fields)).toBeNull();
    expect(closestName('sckit-learn', ['scikit-learn', 'sympy'])).toBe('scikit-learn');
  });

  it('formats the hint only when there is one', () => {
    expect(didYouMean('flsk', ['flask'])).toBe(' (did you mean "flask"?)');
    expect(didYouMean('zzz', ['flask'])).toBe('');
  });

  it('counts insertions, deletions and substitutions', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('same', 'same')).toBe(0);
  });
});
