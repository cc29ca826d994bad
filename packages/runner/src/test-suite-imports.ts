import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { promisify } from 'node:util';
import { RepocodError } from '@repocod/core';
import { ENVIRONMENT_ERROR_CODE } from './environment-error.js';
import type { ProjectExtras } from './project-extras.js';
import { namesOrNone } from './project-extras.js';
import { configuredPlugins } from './pytest-config-plugins.js';
import { testEnvironment } from './pytest-job.js';
import { PYTEST_CONFIG_FILES } from './test-roots-proposal.js';

const execFileAsync = promisify(execFile);

/*
 * An environment can build and import its project and still not run one test: a test dependency the recipe did not
 * install (attrs' conftest.py imports hypothesis, which only its `tests` extra brings). pytest then reports every
 * test file as a collection error at the first run, far from the cause. So the build looks, without importing
 * anything, for each module the test suite imports at the top of its files (column 0: an import inside `try:` or a
 * function may be optional) and asks the environment's Python whether it can find it. A module a conftest.py needs
 * stops the build, since no test can load without it; one a test file needs is reported as a warning, since a suite
 * may hold a file for an optional backend its recipe leaves out on purpose. The plugins the pytest configuration
 * loads (`-p pytest_cov`, or a plugin's option such as `--cov` in addopts: pytest-config-plugins.ts) stop it too:
 * pytest does not start without them.
 */

/** A module the tests import that the environment cannot find. */
export interface MissingTestImport {
  /** The top-level module (`hypothesis`). */
  readonly module: string;
  /** The first file that imports it, relative to the project folder, and the line. */
  readonly file: string;
  readonly line: number;
  /** How many test files import it. */
  readonly files: number;
  /** For a plugin of the pytest configuration: what its line says (`-p pytest_cov`, `--cov`). */
  readonly via?: string;
  /** For a plugin: the package that brings it, where known (`pytest-cov`). */
  readonly distribution?: string;
}

export interface TestImportCheck {
  /** Missing modules imported by a conftest.py, or plugins the configuration loads: no test under it loads. */
  readonly conftest: readonly MissingTestImport[];
  /** Missing modules imported only by test files. */
  readonly testFiles: readonly MissingTestImport[];
  /** Distinct top-level modules looked for. */
  readonly modules: number;
}

interface ImportSite {
  readonly module: string;
  readonly file: string;
  readonly line: number;
  readonly conftest: boolean;
  readonly via?: string;
  readonly distribution?: string;
}

const SKIPPED_FOLDERS = new Set(['node_modules', '__pycache__', 'build', 'dist', 'site-packages']);
const IMPORT_LINE = /^(?:import\s+([\w.]+(?:\s*,\s*[\w.]+)*)|from\s+([\w.]+)\s+import\b)/;
const FIND_SPECS =
  'import importlib.util, sys\n' +
  'for name in sys.argv[1:]:\n' +
  '    try:\n' +
  '        found = importlib.util.find_spec(name) is not None\n' +
  '    except Exception:\n' +
  '        found = True\n' +
  '    if not found:\n' +
  '        print(name)\n';

/** The modules the test suite imports that `python` cannot find, from the project folder as the tests run. */
export async function checkTestImports(
  python: string,
  projectDir: string,
  testRoots: readonly string[],
  env: Readonly<Record<string, string>>,
  pytestArgs: readonly string[] = [],
): Promise<TestImportCheck> {
  const sites = testRoots.flatMap((root) => importSites(projectDir, join(projectDir, root)));
  sites.push(...pluginSites(projectDir, pytestArgs));
  const rootConftest = join(projectDir, 'conftest.py');
  if (!testRoots.includes('.') && existsSync(rootConftest)) sites.push(...importsOf(projectDir, rootConftest, true));
  const modules = [...new Set(sites.map((site) => site.module))].sort();
  if (modules.length === 0) return { conftest: [], testFiles: [], modules: 0 };
  const { stdout } = await execFileAsync(python, ['-c', FIND_SPECS, ...modules], {
    cwd: projectDir,
    env: testEnvironment({ python, projectDir, env }),
    maxBuffer: 16 * 1024 * 1024,
  });
  const missing = new Set(stdout.split('\n').filter((name) => name !== ''));
  const report = (fromConftest: boolean): MissingTestImport[] =>
    [...missing].flatMap((module) => {
      const where = sites.filter((site) => site.module === module);
      const first = where.find((site) => site.conftest === fromConftest);
      if (first === undefined || (!fromConftest && where.some((site) => site.conftest))) return [];
      const files = new Set(where.map((site) => site.file)).size;
      const plugin = {
        ...(first.via === undefined ? {} : { via: first.via }),
        ...(first.distribution === undefined ? {} : { distribution: first.distribution }),
      };
      return [{ module, file: first.file, line: first.line, files, ...plugin }];
    });
  return { conftest: report(true), testFiles: report(false), modules: modules.length };
}

/** The plugins the project's pytest configuration loads, as sites that stop every test. */
function pluginSites(projectDir: string, pytestArgs: readonly string[]): ImportSite[] {
  const texts = new Map<string, string>();
  for (const file of PYTEST_CONFIG_FILES) {
    const path = join(projectDir, file);
    if (existsSync(path)) texts.set(file, readFileSync(path, 'utf8'));
  }
  return configuredPlugins(texts, pytestArgs).map((use) => ({
    module: use.module,
    file: use.file,
    line: use.line,
    conftest: true,
    via: use.via,
    ...(use.distribution === null ? {} : { distribution: use.distribution }),
  }));
}

/** The import sites of the test files and conftest.py files under `folder`. */
function importSites(projectDir: string, folder: string): ImportSite[] {
  if (!existsSync(folder)) return [];
  const sites: ImportSite[] = [];
  const visit = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name.startsWith('.')) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_FOLDERS.has(entry.name)) visit(path);
      } else if (entry.name === 'conftest.py') sites.push(...importsOf(projectDir, path, true));
      else if (/^test_.*\.py$|_test\.py$/.test(entry.name)) sites.push(...importsOf(projectDir, path, false));
    }
  };
  visit(folder);
  return sites;
}

/** The top-level modules a file imports at column 0 that are not the project's own files beside it. */
function importsOf(projectDir: string, file: string, conftest: boolean): ImportSite[] {
  const lines = readFileSync(file, 'utf8').split('\n');
  const shown = relative(projectDir, file);
  return lines.flatMap((text, index) => {
    const match = IMPORT_LINE.exec(text);
    if (match === null) return [];
    const names = match[1] !== undefined ? match[1].split(',').map((name) => name.trim()) : [match[2] as string];
    return names
      .map((name) => name.split('.')[0] as string)
      .filter((module) => module !== '' && !isLocal(projectDir, dirname(file), module))
      .map((module) => ({ module, file: shown, line: index + 1, conftest }));
  });
}

/**
 * Whether `module` is a file or package of the project's own tree: beside the importing file or in a folder above
 * it up to the project folder, or in its src/ (rootdir and conftest folders are on the tests' import path).
 */
function isLocal(projectDir: string, from: string, module: string): boolean {
  const folders = [join(projectDir, 'src')];
  for (let dir = from; dir.startsWith(projectDir); dir = dirname(dir)) {
    folders.push(dir);
    if (dir === projectDir) break;
  }
  return folders.some((dir) => existsSync(join(dir, `${module}.py`)) || existsSync(join(dir, module)));
}

/** A module a conftest.py imports is not in the environment: no test under it can load. */
export class TestDependencyMissingError extends RepocodError {
  readonly repository: string;
  readonly missing: readonly MissingTestImport[];
  readonly logFile: string;

  constructor(repository: string, missing: readonly MissingTestImport[], declared: ProjectExtras, logFile: string) {
    const sites = missing
      .map((item) =>
        item.via === undefined
          ? `${item.file}:${item.line} imports ${item.module}`
          : `${item.file}:${item.line} loads the pytest plugin ${item.module} (${item.via} in addopts)`,
      )
      .join('; ');
    const plugins = missing.filter((item) => item.via !== undefined);
    const why = plugins.length === missing.length ? 'pytest does not start without it' : 'no test under it loads';
    const packages = plugins.flatMap((item) => (item.distribution === undefined ? [] : [item.distribution]));
    const turnOff =
      plugins.length === 0
        ? ''
        : `${packages.length > 0 ? `: ${packages.join(', ')}` : ''} (or replace the configuration's addopts in ` +
          'pytest_args: -o "addopts=..." without it)';
    super(
      ENVIRONMENT_ERROR_CODE,
      [
        `environment of "${repository}" was built, but its tests cannot load: ${sites}, which the environment`,
        `does not have (${why}). Add what provides it to the manifest's install: an extra or dependency group that`,
        `lists it (its extras: ${namesOrNone(declared.extras)}; its groups: ${namesOrNone(declared.groups)}), a`,
        `requirements file, or the package itself${turnOff}. Log: ${logFile}`,
      ].join(' '),
    );
    this.name = 'TestDependencyMissingError';
    this.repository = repository;
    this.missing = missing;
    this.logFile = logFile;
  }
}
