import { describe, expect, it } from 'vitest';
import { candidateModeMarkdown, modeDistances, modeTasks } from './candidate-mode-table.js';

const rows = [
  {
    repository: 'flask',
    modes: { wide: { candidates: 82, mined: 82, withTests: 74 }, narrow: { candidates: 45, mined: 45, withTests: 42 } },
  },
  {
    repository: 'sympy',
    modes: {
      wide: { candidates: 4486, mined: 259, withTests: 245 },
      narrow: { candidates: 100, mined: 0, withTests: 0 },
    },
  },
];
const totals = { flask: 43, sympy: 97 };

describe('modeTasks', () => {
  it('is exact once every candidate is mined, else a lower bound and the mined share over all candidates', () => {
    expect(modeTasks({ candidates: 82, mined: 82, withTests: 74 })).toEqual({ exact: true, atLeast: 74, estimate: 74 });
    expect(modeTasks({ candidates: 4486, mined: 259, withTests: 245 })).toEqual({
      exact: false,
      atLeast: 245,
      estimate: 4244,
    });
    expect(modeTasks({ candidates: 100, mined: 0, withTests: 0 }).estimate).toBeNull();
  });
});

describe('modeDistances', () => {
  it('scores a mode on the repositories mined whole, and names those already over where mined in part', () => {
    const [wide, narrow] = modeDistances(rows, ['wide', 'narrow'], totals);
    expect(wide).toMatchObject({ mode: 'wide', exact: 1, within10: 0, overAtLeast: ['sympy'] });
    expect(wide?.meanLogError).toBeCloseTo(Math.log(74 / 43), 6);
    expect(narrow).toMatchObject({ exact: 1, within10: 1, overAtLeast: [] });
  });
});

describe('candidateModeMarkdown', () => {
  it('gives REPOCOD beside each mode, with the difference, and a line per mode', () => {
    const markdown = candidateModeMarkdown(rows, ['wide', 'narrow'], totals);
    expect(markdown).toContain('| flask | 43 | 74 (82) +72% | 42 (45) −2% |');
    expect(markdown).toContain('| sympy | 97 | ≥ 245 (4486), ≈ 4244 +4275% | ≥ 0 (100) |');
    expect(markdown).toContain('- **narrow**: within 10% on 1 of the 1 repositories mined whole');
  });
});
