import { describe, expect, it } from 'vitest';
import { proposeTestRoots } from './test-roots-proposal.js';

describe('proposeTestRoots', () => {
  it("takes pytest's testpaths from the first configuration file that sets it", () => {
    const pyproject = '[project]\nname = "attrs"\n[tool.pytest.ini_options]\ntestpaths = ["tests", "docs"]\n';
    expect(proposeTestRoots(new Map([['pyproject.toml', pyproject]]), ['tests'])).toEqual({
      roots: ['tests', 'docs'],
      why: 'testpaths of pyproject.toml',
    });
    const cfg = '[metadata]\nname = x\n[tool:pytest]\ntestpaths =\n    src/x/tests\n    more\naddopts = -q\n';
    expect(proposeTestRoots(new Map([['setup.cfg', cfg]]), []).roots).toEqual(['src/x/tests', 'more']);
    const ini = '[pytest]\naddopts = -ra\ntestpaths = testing\n';
    const both = new Map([
      ['pytest.ini', ini],
      ['setup.cfg', cfg],
    ]);
    expect(proposeTestRoots(both, [])).toEqual({ roots: ['testing'], why: 'testpaths of pytest.ini' });
  });

  it('falls back to a tests/ or test/ folder, then the project folder', () => {
    const noTestpaths = new Map([['tox.ini', '[tox]\nenvlist = py311\n[pytest]\naddopts = -q\n']]);
    expect(proposeTestRoots(noTestpaths, ['src', 'test'])).toEqual({
      roots: ['test'],
      why: "the project's test/ folder (no testpaths set)",
    });
    expect(proposeTestRoots(new Map(), ['src']).roots).toEqual(['.']);
  });
});
