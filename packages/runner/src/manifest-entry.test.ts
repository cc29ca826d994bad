import { describe, expect, it } from 'vitest';
import { parseManifest } from './manifest.js';
import { manifestEntry } from './manifest-entry.js';

const MANIFEST = parseManifest(
  ['flask', 'sympy', 'scikit-learn']
    .map((name) => `  - {name: ${name}, source: ${name}, python: "3.11", install: [], test_roots: [tests]}`)
    .reduce((text, line) => `${text}\n${line}`, 'repositories:'),
  'm.yaml',
);

describe('manifestEntry', () => {
  it('finds a repository by its exact name', () => {
    expect(manifestEntry(MANIFEST, 'sympy').source).toBe('sympy');
  });

  it('lists the known names when the name is unknown', () => {
    expect(() => manifestEntry(MANIFEST, 'sklearn')).toThrow(
      'no repository named "sklearn" in m.yaml (known: flask, sympy, scikit-learn)',
    );
    expect(() => manifestEntry(MANIFEST, 'Flask')).toThrow(
      'no repository named "Flask" in m.yaml (did you mean "flask"?) (known: flask, sympy, scikit-learn)',
    );
  });
});
