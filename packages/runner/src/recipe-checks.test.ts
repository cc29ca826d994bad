import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureEnvironment } from './environment.js';
import { EnvironmentError } from './environment-error.js';
import { readEnvironmentMarker } from './environment-marker.js';
import { findUv, type UvTool } from './environment-uv.js';
import { loadManifest, type ManifestEntry } from './manifest.js';
import { RecipeExtraMissingError } from './recipe-extra-check.js';
import { TestDependencyMissingError } from './test-suite-imports.js';

// Recipes checked where they fail (issue 48): real uv builds of a small setuptools project, a copy of the demo with
// a pyproject that declares extras, broken one way per test.

const PROJECT_ROOT = resolve(new URL('../../..', import.meta.url).pathname);
const DEMO = loadManifest(join(PROJECT_ROOT, 'datasets/demo/manifest.yaml')).repositories[0] as ManifestEntry;
const BUILD_TIMEOUT = 180_000;
const PYPROJECT = [
  '[build-system]',
  'requires = ["setuptools==75.8.0"]',
  'build-backend = "setuptools.build_meta"',
  '[project]',
  'name = "inventory-demo"',
  'version = "0.1"',
  '[project.optional-dependencies]',
  'tests = ["pytest==8.3.5"]',
  'docs = []',
  '[dependency-groups]',
  'lint = []',
  '[tool.setuptools]',
  'packages = ["inventory"]',
  '',
].join('\n');

const scratch = mkdtempSync(join(tmpdir(), 'repocod-recipe-checks-'));
let uv: UvTool;
let builds = 0;
/** Each build its own envs folder: without a base commit, equal recipes would share one environment. */
const envsRoot = (): string => join(scratch, `envs-${++builds}`);
afterAll(() => rmSync(scratch, { recursive: true, force: true }), 120_000);

beforeAll(async () => {
  const found = await findUv(undefined, join(scratch, 'envs'));
  if (found === null) throw new Error('no uv: run scripts/setup.sh');
  uv = found;
});

/** A copy of the demo as a setuptools project with extras `tests` and `docs` and a group `lint`. */
function project(edit: (dir: string) => void = () => undefined): string {
  const dir = mkdtempSync(join(scratch, 'project-'));
  cpSync(join(PROJECT_ROOT, 'datasets/demo/inventory'), join(dir, 'inventory'), { recursive: true });
  cpSync(join(PROJECT_ROOT, 'datasets/demo/tests'), join(dir, 'tests'), { recursive: true });
  writeFileSync(join(dir, 'pyproject.toml'), PYPROJECT);
  edit(dir);
  return dir;
}

async function failure(entry: ManifestEntry, checkout: string): Promise<unknown> {
  return ensureEnvironment(entry, checkout, { envsRoot: envsRoot(), uv: uv.path }).catch((caught: unknown) => caught);
}

describe('recipes checked where they fail', () => {
  it('stops at an extra the project does not have, naming it, the uv line and the extras it has', {
    timeout: BUILD_TIMEOUT,
  }, async () => {
    const error = await failure({ ...DEMO, install: [{ pip: ['--editable', '.[test]'] }] }, project());
    expect(error).toBeInstanceOf(RecipeExtraMissingError);
    const refused = error as RecipeExtraMissingError;
    expect(refused.missing.map((item) => item.extra)).toEqual(['test']);
    expect(refused.message).toContain("the recipe's step `");
    expect(refused.message).toContain('asks for the extra "test"');
    expect(refused.message).toMatch(/warning: The package `inventory-demo @ file:\/\/\S+` does not have an extra/);
    expect(refused.message).toContain('Its extras: tests, docs; its dependency groups: lint.');
    // No marker: the next run builds again and stops again, never reusing the half-right environment.
    expect(readEnvironmentMarker(refused.logFile.replace(/\.log$/, ''))).toBeNull();
  });

  it('builds with the extra the project has', { timeout: BUILD_TIMEOUT }, async () => {
    const built = await ensureEnvironment({ ...DEMO, install: [{ pip: ['--editable', '.[tests]'] }] }, project(), {
      envsRoot: envsRoot(),
      uv: uv.path,
    });
    expect(built.created).toBe(true);
    expect(readFileSync(built.logFile, 'utf8')).toMatch(
      /# test imports: \d+ top-level module\(s\) looked for, 0 missing/,
    );
  });

  it('names the missing requirements file by the line uv printed', { timeout: BUILD_TIMEOUT }, async () => {
    const error = await failure({ ...DEMO, install: [{ pip: ['-r', 'requirements/test.txt', '.'] }] }, project());
    expect(error).toBeInstanceOf(EnvironmentError);
    expect((error as EnvironmentError).message).toMatch(
      /exited with code 2 \(error: File not found: `?requirements\/test\.txt`?\); fix the install command/,
    );
  });

  it('names a dependency group the project does not have by the line uv printed', {
    timeout: BUILD_TIMEOUT,
  }, async () => {
    const error = await failure({ ...DEMO, install: [{ pip: ['--group', 'test', '.'] }] }, project());
    expect(error).toBeInstanceOf(EnvironmentError);
    expect((error as EnvironmentError).message).toContain("(error: The dependency group 'test' was not found");
  });

  it('stops when a conftest.py imports a module the environment lacks, naming the file and line', {
    timeout: BUILD_TIMEOUT,
  }, async () => {
    const checkout = project((dir) => {
      const conftest = join(dir, 'tests/conftest.py');
      writeFileSync(conftest, `import hypothesis_absent_repocod\n${readFileSync(conftest, 'utf8')}`);
    });
    const error = await failure({ ...DEMO, install: [{ pip: ['--editable', '.[tests]'] }] }, checkout);
    expect(error).toBeInstanceOf(TestDependencyMissingError);
    const refused = error as TestDependencyMissingError;
    expect(refused.missing).toEqual([
      { module: 'hypothesis_absent_repocod', file: 'tests/conftest.py', line: 1, files: 1 },
    ]);
    expect(refused.message).toContain('tests/conftest.py:1 imports hypothesis_absent_repocod');
    expect(refused.message).toContain('its extras: tests, docs');
    expect(readEnvironmentMarker(refused.logFile.replace(/\.log$/, ''))).toBeNull();
  });

  it("stops when the pytest configuration's addopts loads a plugin the environment lacks, naming the line", {
    timeout: BUILD_TIMEOUT,
  }, async () => {
    // multidict's pytest.ini at 2026 (`-p pytest_cov`, `--cov`) with only pytest installed: pytest does not start.
    const ini = '[pytest]\naddopts =\n  --durations=10\n  # coverage\n  -p pytest_cov\n  --cov\n  --strict-markers\n';
    const checkout = project((dir) => writeFileSync(join(dir, 'pytest.ini'), ini));
    const error = await failure({ ...DEMO, install: [{ pip: ['--editable', '.[tests]'] }] }, checkout);
    expect(error).toBeInstanceOf(TestDependencyMissingError);
    const refused = error as TestDependencyMissingError;
    expect(refused.missing).toEqual([
      { module: 'pytest_cov', file: 'pytest.ini', line: 5, files: 1, via: '-p pytest_cov', distribution: 'pytest-cov' },
    ]);
    expect(refused.message).toContain(
      'pytest.ini:5 loads the pytest plugin pytest_cov (-p pytest_cov in addopts), which the environment does not ' +
        'have (pytest does not start without it)',
    );
    expect(refused.message).toContain(
      "or the package itself: pytest-cov (or replace the configuration's addopts in pytest_args",
    );
    // With the plugin's package in the install, the environment builds.
    const built = await failure(
      { ...DEMO, install: [{ pip: ['--editable', '.[tests]', 'pytest-cov'] }] },
      project((dir) => writeFileSync(join(dir, 'pytest.ini'), ini)),
    );
    expect(built).not.toBeInstanceOf(Error);
  });

  it('warns of a module only a test file imports, and of none the project holds itself', {
    timeout: BUILD_TIMEOUT,
  }, async () => {
    const checkout = project((dir) => {
      mkdirSync(join(dir, 'tests/helpers'));
      writeFileSync(join(dir, 'tests/helpers/__init__.py'), '');
      writeFileSync(
        join(dir, 'tests/test_optional.py'),
        'import os, torch_absent_repocod\nfrom helpers import thing\ntry:\n    import other_absent_repocod\n' +
          'except ImportError:\n    pass\n',
      );
    });
    const lines: string[] = [];
    const built = await ensureEnvironment({ ...DEMO, install: [{ pip: ['--editable', '.[tests]'] }] }, checkout, {
      envsRoot: envsRoot(),
      uv: uv.path,
      onLog: (line) => lines.push(line),
    });
    expect(built.created).toBe(true);
    const warnings = lines.filter((line) => line.startsWith('# warning: '));
    expect(warnings).toEqual([
      '# warning: torch_absent_repocod is not in the environment; 1 test file(s) import it ' +
        '(tests/test_optional.py:1) and will not collect',
    ]);
  });
});
