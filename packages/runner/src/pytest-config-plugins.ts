import { readTomlSubset } from './pyproject-subset.js';
import { PYTEST_CONFIG_FILES } from './test-roots-proposal.js';

/*
 * The plugins a project's pytest configuration needs before a single test loads: `-p NAME` in its addopts, and the
 * options of well-known plugins there (`--cov=pkg` is pytest-cov's: without it pytest stops with "unrecognized
 * arguments"). pytest reads one configuration file, the first of pytest.ini (always, even without a [pytest]
 * section), pyproject.toml with [tool.pytest.ini_options], tox.ini with [pytest] and setup.cfg with [tool:pytest].
 * `-p no:NAME` on the command line does not undo an addopts `-p NAME` (pytest imports it first); only replacing
 * addopts does (`-o addopts=...` in the entry's pytest_args), so then the file's addopts are not read.
 */

/** A plugin module the configuration needs, and the line that asks for it. */
export interface PluginUse {
  /** The module pytest imports (`pytest_cov`). */
  readonly module: string;
  readonly file: string;
  readonly line: number;
  /** What the line says (`-p pytest_cov`, `--cov`). */
  readonly via: string;
  /** The package on PyPI that brings it, where known (`pytest-cov`). */
  readonly distribution: string | null;
}

/** Options that only a plugin adds, by their prefix, and the module of that plugin (per-plugin constants). */
const PLUGIN_OPTIONS: readonly (readonly [option: string, module: string])[] = [
  ['--cov', 'pytest_cov'],
  ['--no-cov', 'pytest_cov'],
  ['--numprocesses', 'xdist'],
  ['--dist', 'xdist'],
  ['--timeout', 'pytest_timeout'],
  ['--reruns', 'pytest_rerunfailures'],
  ['--benchmark-', 'pytest_benchmark'],
  ['--codspeed', 'pytest_codspeed'],
  ['--asyncio-mode', 'pytest_asyncio'],
  ['--mpl', 'pytest_mpl'],
  ['--hypothesis-', 'hypothesis'],
  ['--doctest-plus', 'pytest_doctestplus'],
  ['--remote-data', 'pytest_remotedata'],
];

/** The package of each known plugin module. */
const DISTRIBUTIONS: Readonly<Record<string, string>> = {
  pytest_cov: 'pytest-cov',
  xdist: 'pytest-xdist',
  pytest_timeout: 'pytest-timeout',
  pytest_rerunfailures: 'pytest-rerunfailures',
  pytest_benchmark: 'pytest-benchmark',
  pytest_codspeed: 'pytest-codspeed',
  pytest_asyncio: 'pytest-asyncio',
  pytest_mpl: 'pytest-mpl',
  hypothesis: 'hypothesis',
  pytest_doctestplus: 'pytest-doctestplus',
  pytest_remotedata: 'pytest-remotedata',
};

/** The plugins the configuration file pytest would read needs; none when `pytestArgs` replace its addopts. */
export function configuredPlugins(texts: ReadonlyMap<string, string>, pytestArgs: readonly string[] = []): PluginUse[] {
  const chosen = configFile(texts);
  const replaced = pytestArgs.some(
    (arg, index) =>
      /^(-o|--override-ini=)addopts=/.test(arg) ||
      ((arg === '-o' || arg === '--override-ini') && pytestArgs[index + 1]?.startsWith('addopts=') === true),
  );
  if (chosen === null || replaced) return [];
  const uses: PluginUse[] = [];
  const use = (module: string, line: number, via: string): void => {
    if (uses.some((found) => found.module === module)) return;
    uses.push({ module, file: chosen.file, line, via, distribution: DISTRIBUTIONS[module] ?? null });
  };
  for (const { text, line } of chosen.addopts) {
    const words = text.split(/\s+/).filter((word) => word !== '');
    words.forEach((word, index) => {
      const plugin = word === '-p' ? words[index + 1] : word.startsWith('-p') && word.length > 2 ? word.slice(2) : null;
      if (plugin !== null && plugin !== undefined) {
        if (!plugin.startsWith('no:')) use(plugin.split('.')[0] as string, line, `-p ${plugin}`);
        return;
      }
      const option = PLUGIN_OPTIONS.find(
        ([prefix]) =>
          word === prefix || word.startsWith(`${prefix}=`) || (prefix.endsWith('-') && word.startsWith(prefix)),
      );
      if (option !== undefined) use(option[1], line, word.split('=')[0] ?? word);
    });
  }
  return uses;
}

interface ChosenConfig {
  readonly file: string;
  /** The addopts value, one piece per line of the file it stands on. */
  readonly addopts: readonly { readonly text: string; readonly line: number }[];
}

const INI_SECTIONS: Readonly<Record<string, string>> = {
  'pytest.ini': 'pytest',
  'tox.ini': 'pytest',
  'setup.cfg': 'tool:pytest',
};

function configFile(texts: ReadonlyMap<string, string>): ChosenConfig | null {
  for (const file of PYTEST_CONFIG_FILES) {
    const text = texts.get(file);
    if (text === undefined) continue;
    if (file === 'pyproject.toml') {
      const options = readTomlSubset(text).get('tool.pytest.ini_options');
      if (options === undefined) continue;
      return { file, addopts: tomlAddopts(text, options.get('addopts')) };
    }
    const section = iniSection(text, INI_SECTIONS[file] as string);
    if (section === null && file !== 'pytest.ini') continue;
    return { file, addopts: section === null ? [] : iniAddopts(section) };
  }
  return null;
}

/** The section's lines with their line numbers in the file, or null when the file has no such section. */
function iniSection(text: string, name: string): { text: string; line: number }[] | null {
  const lines = text.split('\n');
  const start = lines.findIndex((line) => line.trim() === `[${name}]`);
  if (start < 0) return null;
  const body: { text: string; line: number }[] = [];
  for (let index = start + 1; index < lines.length && !/^\[/.test(lines[index] ?? ''); index++) {
    body.push({ text: lines[index] ?? '', line: index + 1 });
  }
  return body;
}

/** `addopts =` and its continuation lines (indented, or blank between them), comments left out. */
function iniAddopts(section: readonly { text: string; line: number }[]): { text: string; line: number }[] {
  const start = section.findIndex((line) => /^addopts\s*[=:]/.test(line.text));
  if (start < 0) return [];
  const first = section[start] as { text: string; line: number };
  const pieces = [{ text: first.text.replace(/^addopts\s*[=:]/, ''), line: first.line }];
  for (const line of section.slice(start + 1)) {
    if (line.text.trim() !== '' && !/^[ \t]/.test(line.text)) break;
    pieces.push(line);
  }
  return pieces
    .map((piece) => ({ text: piece.text.replace(/(^|\s)[#;].*$/, '').trim(), line: piece.line }))
    .filter((piece) => piece.text !== '');
}

/** A TOML addopts (a string or an array of strings), each at the line of the file it is found on. */
function tomlAddopts(text: string, value: unknown): { text: string; line: number }[] {
  const items =
    typeof value === 'string' ? [value] : Array.isArray(value) ? value.filter((v) => typeof v === 'string') : [];
  const lines = text.split('\n');
  const addoptsLine = lines.findIndex((line) => /^\s*addopts\s*=/.test(line)) + 1;
  return items.map((item: string) => {
    const found = lines.findIndex(
      (line, index) => index + 1 >= addoptsLine && line.includes(item.split(/\s+/)[0] ?? item),
    );
    return { text: item, line: found < 0 ? addoptsLine : found + 1 };
  });
}
