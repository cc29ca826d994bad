import { describe, expect, it } from 'vitest';
import { manifestNameOf, ownerAndName, seedRepoOf } from './repository-names.js';

const MANIFEST = [
  { name: 'plotly.py', url: 'https://github.com/plotly/plotly.py.git' },
  { name: 'scikit-learn', url: 'git@github.com:scikit-learn/scikit-learn.git' },
  { name: 'demo', url: null },
];

describe('repository names both ways', () => {
  it("maps REPOCOD's short names and the seed's owner/name to the manifest's name", () => {
    expect(manifestNameOf('plotly.py', MANIFEST)).toBe('plotly.py');
    expect(manifestNameOf('plotly/plotly.py', MANIFEST)).toBe('plotly.py');
    expect(manifestNameOf('Scikit-Learn/scikit-learn', MANIFEST)).toBe('scikit-learn');
    expect(manifestNameOf('repocod-kit/demo', MANIFEST)).toBe('demo');
    expect(manifestNameOf('pallets/flask', MANIFEST)).toBeNull();
    expect(manifestNameOf('flask', MANIFEST)).toBeNull();
  });

  it("gives the seed's repo of a manifest repository", () => {
    expect(ownerAndName('https://github.com/plotly/plotly.py')).toBe('plotly/plotly.py');
    expect(seedRepoOf(MANIFEST[1] as (typeof MANIFEST)[number])).toBe('scikit-learn/scikit-learn');
    expect(seedRepoOf(MANIFEST[2] as (typeof MANIFEST)[number])).toBe('demo');
  });
});
