import { readTomlSubset } from './pyproject-subset.js';

/** The test roots an entry is proposed with, and where they were read. */
export interface TestRootsProposal {
  readonly roots: readonly string[];
  readonly why: string;
}

/** The files pytest reads its configuration from, in the order pytest looks for them. */
export const PYTEST_CONFIG_FILES = ['pytest.ini', 'pyproject.toml', 'tox.ini', 'setup.cfg'];

/**
 * The folders a project's suite lives in: pytest's own `testpaths` where a configuration file sets it (pytest.ini,
 * pyproject.toml's [tool.pytest.ini_options], tox.ini's [pytest], setup.cfg's [tool:pytest]), else a top-level
 * `tests` or `test` folder, else the project folder itself (pytest then finds test files anywhere in it).
 * `texts` are the configuration files present, by name; `folders` the project folder's top-level folders.
 */
export function proposeTestRoots(texts: ReadonlyMap<string, string>, folders: readonly string[]): TestRootsProposal {
  for (const file of PYTEST_CONFIG_FILES) {
    const text = texts.get(file);
    if (text === undefined) continue;
    const paths = file === 'pyproject.toml' ? pyprojectTestpaths(text) : iniTestpaths(text, INI_SECTIONS[file] ?? []);
    if (paths !== null && paths.length > 0) return { roots: paths, why: `testpaths of ${file}` };
  }
  const folder = ['tests', 'test'].find((name) => folders.includes(name));
  if (folder !== undefined) return { roots: [folder], why: `the project's ${folder}/ folder (no testpaths set)` };
  return { roots: ['.'], why: 'no testpaths and no tests/ folder: the whole project folder' };
}

const INI_SECTIONS: Readonly<Record<string, readonly string[]>> = {
  'pytest.ini': ['pytest'],
  'tox.ini': ['pytest'],
  'setup.cfg': ['tool:pytest'],
};

function pyprojectTestpaths(text: string): string[] | null {
  const value = readTomlSubset(text).get('tool.pytest.ini_options')?.get('testpaths');
  if (typeof value === 'string') return [value];
  if (!Array.isArray(value)) return null;
  return value.filter((item): item is string => typeof item === 'string');
}

/** `testpaths = a b` (or one per continuation line) of the first of `sections` the file has. */
function iniTestpaths(text: string, sections: readonly string[]): string[] | null {
  for (const section of sections) {
    const escaped = section.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const body = new RegExp(`^\\[${escaped}\\][^\\n]*\\n([\\s\\S]*?)(?=^\\[|(?![\\s\\S]))`, 'm').exec(text)?.[1];
    if (body === undefined) continue;
    const match = /^testpaths\s*=\s*([^\n]*(?:\n[ \t]+[^\n]*)*)/m.exec(body);
    if (match?.[1] === undefined) return null;
    return match[1].split(/\s+/).filter((path) => path !== '' && !path.startsWith('#'));
  }
  return null;
}
