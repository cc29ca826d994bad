import { describe, expect, it } from 'vitest';
import { deriveRecipeAt } from './derive-recipe-at.js';
import { deriveRecipe, proposalYaml, satisfies } from './derive-recipe.js';
import { parseManifest } from './manifest.js';
import { makeDatedHistory } from './testing/dated-commits.js';

const OLD_PYPROJECT = `[build-system]
requires = ["flit_core<4"]

[project]
name = "lib"
requires-python = ">=3.9"
dependencies = ["click>=8.1"]

[project.optional-dependencies]
test = [
    "pytest>=8.0",  # the runner
    "defusedxml>=0.7.1",
]
docs = ["sphinx"]
`;

const NEW_PYPROJECT = `[project]
name = "lib"
requires-python = ">=3.12"
dependencies = ["click>=8.1"]

[project.optional-dependencies]
docs = ["sphinx"]

[dependency-groups]
test = [
    "pytest>=9.0",
    "greenlet ; python_version < '3.11'",
    { include-group = "types" },
]
types = ["typing_extensions>=4.9"]
dev = [{include-group = "test"}, "lib[docs]", "ruff"]
`;

const WORKFLOW = `jobs:
  test:
    steps:
      - run: uv pip install --group test -e .  # CI's own
`;

describe('deriveRecipeAt on a history whose pyproject changes', () => {
  it('proposes two recipes: the extra of the old commit, the group and a newer Python of the new one', async () => {
    const history = await makeDatedHistory([
      { files: { 'pyproject.toml': OLD_PYPROJECT }, committedAt: '2024-06-01T10:00:00+02:00' },
      { files: { 'pyproject.toml': NEW_PYPROJECT }, committedAt: '2026-03-01T00:00:00Z' },
    ]);
    const [old, recent] = history.commits as [string, string];
    const at = (commit: string) =>
      deriveRecipeAt({
        name: 'lib',
        gitDir: history.path,
        commit,
        packageRoot: '.',
        manifestPython: '3.11',
        installedPythons: ['3.13', '3.11', '3.12'],
      });
    const before = await at(old);
    expect(before).toMatchObject({
      python: '3.11',
      install: [{ pip: ['--editable', '.[test]'] }],
      resolvedAsOf: '2024-06-01T08:00:00Z',
    });
    expect(before.reasons).toEqual([
      "python 3.11: the manifest's still satisfies requires-python >=3.9 (pyproject.toml)",
      "install: pyproject.toml's extra [test]",
    ]);
    expect(before.undecided).toEqual([
      'extras not installed: docs; add one (".[name]") if the tests import what it brings',
    ]);

    const after = await at(recent);
    expect(after).toMatchObject({
      python: '3.12',
      install: [
        { pip: ['pytest>=9.0', "greenlet ; python_version < '3.11'", 'typing_extensions>=4.9', '--editable', '.'] },
      ],
      resolvedAsOf: '2026-03-01T00:00:00Z',
    });
    expect(after.reasons[0]).toBe(
      "python 3.12: the lowest installed minor satisfying requires-python >=3.12 (pyproject.toml) (the manifest's " +
        '3.11 ' +
        'no longer does)',
    );
    expect(after.reasons[1]).toBe("install: pyproject.toml's dependency group `test`, written out (3 requirements)");
  });

  it('reads a requirements file, setup.cfg, the CI workflow, and says what it cannot decide', () => {
    const input = (texts: Record<string, string>, installedPythons: string[] = ['3.11']) =>
      deriveRecipe({
        name: 'lib',
        commit: 'a'.repeat(40),
        committedAt: '2024-09-01T09:04:14-07:00',
        texts: new Map(Object.entries(texts)),
        manifestPython: null,
        installedPythons,
      });
    const requirements = input({ 'pyproject.toml': '[project]\nname = "lib"\n', 'requirements/tests.txt': 'pytest\n' });
    expect(requirements.install).toEqual([{ pip: ['-r', 'requirements/tests.txt', '--editable', '.'] }]);
    expect(requirements.python).toBeNull();
    expect(requirements.undecided[0]).toBe('python: no requires-python found and no manifest entry; choose a version');
    const setupCfg = input({
      'setup.cfg': '[options]\npython_requires = >=3.8\n\n[options.extras_require]\ntesting =\n  pytest\n',
    });
    expect(setupCfg).toMatchObject({ python: '3.11', install: [{ pip: ['--editable', '.[testing]'] }] });
    const nothing = input({
      'tox.ini': '[testenv]\ndeps =\n  pytest\n  hypothesis\n',
      '.github/workflows/ci.yml': WORKFLOW,
    });
    // tox's test deps are the install where nothing else names them (pywt at 2026: pytest, cython, numpy, matplotlib).
    expect(nothing.install).toEqual([{ pip: ['pytest', 'hypothesis', '--editable', '.'] }]);
    expect(nothing.reasons).toContain("install: the deps of tox.ini's test environment (2 requirements)");
    expect(nothing.undecided).toEqual([
      'python: no requires-python found and no manifest entry; choose a version',
      'CI: .github/workflows/ci.yml: uv pip install --group test -e .',
    ]);
    const factors = input({ 'tox.ini': '[testenv]\ndeps =\n  pytest  # the runner\n  py312: numpy\n  {env:EXTRA}\n' });
    expect(factors.install).toEqual([{ pip: ['pytest', '--editable', '.'] }]);
    expect(factors.undecided).toContain("tox.ini's deps left out: py312: numpy, {env:EXTRA}");
    const bare = input({ 'setup.py': 'from setuptools import setup\nsetup()\n' });
    expect(bare.install).toEqual([{ pip: ['pytest', '--editable', '.'] }]);
    expect(bare.undecided).toContain(
      'install: no test group, extra, requirements file or tox deps found; pytest and the project proposed',
    );
    // meson-python serves an editable install from the folder it built, not from the worktrees: a regular install.
    const meson = input({
      'pyproject.toml':
        '[build-system]\nbuild-backend = "mesonpy"\nrequires = ["meson-python"]\n[project]\nname = "w"\n' +
        '[dependency-groups]\ntest = ["pytest"]\n',
    });
    expect(meson.install).toEqual([{ pip: ['pytest', '.'] }]);
    expect(meson.reasons.at(-1)).toContain('install: the project regularly, not editable: build-backend mesonpy');
    const tooNew = input({ 'pyproject.toml': '[project]\nrequires-python = ">=3.14"\n' }, ['3.11', '3.12']);
    expect(tooNew.python).toBeNull();
    expect(tooNew.undecided[0]).toBe(
      "python: requires-python >=3.14 (pyproject.toml) and no installed Python 3.10+ (the runner's harness) " +
        'satisfies it (installed: 3.11, 3.12); install one',
    );
    // 3.9 satisfies >=3.9 but the harness (pytest-reportlog 1.0.0) does not run on it: the next one up.
    const old = input({ 'pyproject.toml': '[project]\nrequires-python = ">=3.9"\n' }, ['3.9', '3.10', '3.11']);
    expect(old.python).toBe('3.10');
    expect(old.reasons[0]).toBe(
      "python 3.10: the lowest installed minor satisfying requires-python >=3.9 (pyproject.toml) and the runner's " +
        'harness (3.10+)',
    );
  });

  it('writes a variant that the manifest reads back as written', () => {
    const proposal = deriveRecipe({
      name: 'lib',
      commit: 'b'.repeat(40),
      committedAt: '2026-03-01T00:00:00Z',
      texts: new Map([['pyproject.toml', NEW_PYPROJECT]]),
      manifestPython: '3.11',
      installedPythons: ['3.12'],
    });
    const yaml = proposalYaml(proposal);
    const manifest = [
      'repositories:',
      '  - name: lib',
      '    source: lib',
      '    python: "3.11"',
      '    install: [{pip: [--editable, ".[test]"]}]',
      '    test_roots: [tests]',
      yaml,
    ].join('\n');
    const [entry] = parseManifest(manifest, 'derived.yaml').repositories;
    expect(entry?.variants?.[0]).toMatchObject({
      from: { kind: 'moment', at: '2026-03-01T00:00:00Z' },
      fields: { python: '3.12', install: proposal.install },
    });
    expect(entry?.variants?.[0]?.why).toMatch(/^derived from the project files at bbbbbbbbbbbb: python 3\.12: /);
  });

  it('compares a Python minor with requires-python the way pip does for 3.x', () => {
    expect(satisfies(11, '>=3.9')).toBe(true);
    expect(satisfies(11, '>=3.12')).toBe(false);
    expect(satisfies(11, '>=3.8, <3.11')).toBe(false);
    expect(satisfies(10, '>=3.8, <3.11')).toBe(true);
    expect(satisfies(11, '~=3.10')).toBe(true);
    expect(satisfies(11, '!=3.11.*')).toBe(false);
    expect(satisfies(12, '>3.11')).toBe(true);
    expect(satisfies(11, '>3.11')).toBe(false);
    expect(satisfies(11, '>=3.11.4')).toBe(true);
  });
});
