import { describe, expect, it } from 'vitest';
import { linearize } from './c3-linearization.js';

/** Classes as names, bases as a table: MROs computed the way the index does, recursively. */
function mroIn(bases: Record<string, string[]>): (name: string) => string[] {
  const mro = (name: string): string[] => linearize(name, bases[name] ?? [], mro, (item) => item);
  return mro;
}

describe('linearize', () => {
  it('orders a diamond as Python does', () => {
    const mro = mroIn({ D: ['B', 'C'], B: ['A'], C: ['A'], A: [] });
    expect(mro('D')).toEqual(['D', 'B', 'C', 'A']);
  });

  it('matches Python on the classic C3 example', () => {
    const mro = mroIn({ O: [], F: ['O'], E: ['O'], D: ['O'], C: ['D', 'F'], B: ['D', 'E'], A: ['B', 'C'] });
    expect(mro('A')).toEqual(['A', 'B', 'C', 'D', 'E', 'F', 'O']);
  });

  it('falls back to a depth-first order without repeats when C3 has no solution', () => {
    const mro = mroIn({ X: [], Y: [], A: ['X', 'Y'], B: ['Y', 'X'], Z: ['A', 'B'] });
    expect(mro('Z')).toEqual(['Z', 'A', 'X', 'Y', 'B']);
  });
});
