import type { InstallStep } from './install-step.js';
import { readTomlSubset, type TomlTables, type TomlValue } from './pyproject-subset.js';
import { parseUtcDate, utcTimestamp } from './utc-date.js';

/**
 * A proposed recipe for a repository at a commit, derived from its project files of that commit alone (the texts
 * are read at the edge: derive-recipe-at.ts). The rules, in order:
 *
 * - python: the manifest's version while it still satisfies requires-python (pyproject.toml's, else setup.cfg's
 *   or setup.py's python_requires), else the lowest installed minor that does; none installed is left undecided;
 * - install, one `pip:` step: a dependency group named test/tests/testing, its items written out (include-group
 *   followed) before `--editable .`, since neither pip 24 nor uv pip (without a pyproject path) installs a group;
 *   else an extra of those names, `--editable .[extra]`; else a test requirements file, `-r FILE`; else setup.cfg's
 *   extras_require or setup.py's; else pytest and the project, marked for the curator;
 * - the date: the commit's committer date, which the environment resolves versions as of (resolution-date.ts).
 *
 * What could not be decided (other extras the tests may need, a dev group, tox.ini and CI hints) is listed for
 * the curator; the proposal is a start, not a recipe proven by a build.
 */

/** The group and extra names taken for the tests' requirements, in order of preference. */
const TEST_NAMES = ['test', 'tests', 'testing'];
/** Requirements files taken for the tests, in order of preference (relative to the project folder). */
const REQUIREMENTS_FILES = [
  'requirements/tests.txt',
  'requirements/test.txt',
  'requirements/testing.txt',
  'requirements/pytest.txt',
  'requirements-test.txt',
  'requirements-tests.txt',
  'requirements-pytest.txt',
  'requirements_test.txt',
  'test-requirements.txt',
  'tests/requirements.txt',
  'requirements_test_min.txt',
];
/** The files the derivation reads, relative to the project folder; plus the CI workflows. */
export const DERIVE_FILES = ['pyproject.toml', 'setup.cfg', 'setup.py', 'tox.ini', ...REQUIREMENTS_FILES];
export const WORKFLOW_FOLDER = '.github/workflows';

export interface DeriveInput {
  readonly name: string;
  readonly commit: string;
  /** The commit's committer date, ISO 8601 with a zone. */
  readonly committedAt: string;
  /** The texts of DERIVE_FILES present at the commit, and of its workflow files, by path. */
  readonly texts: ReadonlyMap<string, string>;
  /** The manifest's python for the repository, if it has an entry. */
  readonly manifestPython: string | null;
  /** The Python minors installed here (`3.11`), for a version the manifest's no longer satisfies. */
  readonly installedPythons: readonly string[];
}

export interface RecipeProposal {
  readonly name: string;
  readonly commit: string;
  readonly committedAt: string;
  /** UTC: what uv resolves versions as of. */
  readonly resolvedAsOf: string;
  readonly python: string | null;
  readonly install: readonly InstallStep[];
  /** How each part was decided, for the `why` of a variant. */
  readonly reasons: readonly string[];
  /** What the curator must decide. */
  readonly undecided: readonly string[];
}

export function deriveRecipe(input: DeriveInput): RecipeProposal {
  const pyproject = readTomlSubset(input.texts.get('pyproject.toml') ?? '');
  const reasons: string[] = [];
  const undecided: string[] = [];
  const python = derivePython(input, pyproject, reasons, undecided);
  const install = installedAsBuilt(deriveInstall(input, pyproject, reasons, undecided), pyproject, reasons);
  undecided.push(...ciHints(input.texts));
  const at = parseUtcDate(input.committedAt);
  return {
    name: input.name,
    commit: input.commit,
    committedAt: input.committedAt,
    resolvedAsOf: at === null ? input.committedAt : utcTimestamp(at),
    python,
    install,
    reasons,
    undecided,
  };
}

/** pytest-reportlog 1.0.0, which the harness pins (environment-key.ts), needs Python 3.10 or newer. */
const HARNESS_MIN_MINOR = 10;

function derivePython(
  input: DeriveInput,
  pyproject: TomlTables,
  reasons: string[],
  undecided: string[],
): string | null {
  const fromPyproject = stringOf(pyproject.get('project')?.get('requires-python'));
  const fromSetupCfg = /^\s*python_requires\s*=\s*(.+)$/m.exec(input.texts.get('setup.cfg') ?? '')?.[1];
  const fromSetupPy = /python_requires\s*=\s*["']([^"']+)["']/.exec(input.texts.get('setup.py') ?? '')?.[1];
  const requires = fromPyproject ?? fromSetupCfg?.trim() ?? fromSetupPy ?? null;
  const where = fromPyproject !== null ? 'pyproject.toml' : fromSetupCfg !== undefined ? 'setup.cfg' : 'setup.py';
  const manifest = input.manifestPython;
  if (requires === null) {
    if (manifest !== null) reasons.push(`python ${manifest}: the manifest's (no requires-python found)`);
    else undecided.push('python: no requires-python found and no manifest entry; choose a version');
    return manifest;
  }
  const manifestMinor = manifest === null ? null : minorOf(manifest);
  if (manifest !== null && manifestMinor !== null && satisfies(manifestMinor, requires)) {
    reasons.push(`python ${manifest}: the manifest's still satisfies requires-python ${requires} (${where})`);
    return manifest;
  }
  const installed = [...input.installedPythons].sort((a, b) => (minorOf(a) ?? 0) - (minorOf(b) ?? 0));
  const runs = (version: string): boolean => (minorOf(version) ?? -1) >= HARNESS_MIN_MINOR;
  const lowest = installed.find((version) => runs(version) && satisfies(minorOf(version) ?? -1, requires));
  if (lowest === undefined) {
    undecided.push(
      [
        `python: requires-python ${requires} (${where}) and no installed Python 3.${HARNESS_MIN_MINOR}+ (the`,
        `runner's harness) satisfies it (installed: ${installed.join(', ') || 'none'}); install one`,
      ].join(' '),
    );
    return null;
  }
  const was = manifest === null ? '' : ` (the manifest's ${manifest} no longer does)`;
  const floor = installed.some((version) => !runs(version) && satisfies(minorOf(version) ?? -1, requires))
    ? ` and the runner's harness (3.${HARNESS_MIN_MINOR}+)`
    : '';
  reasons.push(
    `python ${lowest}: the lowest installed minor satisfying requires-python ${requires} (${where})${floor}${was}`,
  );
  return lowest;
}

function deriveInstall(
  input: DeriveInput,
  pyproject: TomlTables,
  reasons: string[],
  undecided: string[],
): InstallStep[] {
  const groups = pyproject.get('dependency-groups') ?? new Map<string, TomlValue>();
  const extras = pyproject.get('project.optional-dependencies') ?? new Map<string, TomlValue>();
  const projectName = stringOf(pyproject.get('project')?.get('name'));
  const group = TEST_NAMES.find((name) => groups.has(name));
  const extra = TEST_NAMES.find((name) => extras.has(name));
  const otherExtras = [...extras.keys()].filter((name) => name !== extra);
  if (otherExtras.length > 0) {
    undecided.push(
      `extras not installed: ${otherExtras.join(', ')}; add one (".[name]") if the tests import what it brings`,
    );
  }
  if (group === undefined && groups.has('dev')) {
    undecided.push('a dependency group `dev` and no test group: check whether the tests need what it lists');
  }
  if (group !== undefined) {
    const items = groupItems(groups, group, projectName, new Set());
    reasons.push(`install: pyproject.toml's dependency group \`${group}\`, written out (${items.length} requirements)`);
    return [{ pip: [...items, '--editable', extra === undefined ? '.' : `.[${extra}]`] }];
  }
  if (extra !== undefined) {
    reasons.push(`install: pyproject.toml's extra [${extra}]`);
    return [{ pip: ['--editable', `.[${extra}]`] }];
  }
  const requirements = REQUIREMENTS_FILES.find((file) => input.texts.has(file));
  if (requirements !== undefined) {
    reasons.push(`install: the test requirements in ${requirements}`);
    return [{ pip: ['-r', requirements, '--editable', '.'] }];
  }
  const setupExtra = setupExtraOf(input.texts);
  if (setupExtra !== null) {
    reasons.push(`install: the extra [${setupExtra.name}] of ${setupExtra.file}`);
    return [{ pip: ['--editable', `.[${setupExtra.name}]`] }];
  }
  const tox = /^\s*deps\s*=\s*\n((?:[ \t]+\S.*\n?)+)/m.exec(input.texts.get('tox.ini') ?? '')?.[1];
  if (tox !== undefined) {
    const lines = tox
      .split('\n')
      .map((line) => line.replace(/\s+#.*$/, '').trim())
      .filter((line) => line !== '' && !line.startsWith('#'));
    // A line with a tox substitution ({env:…}, {toxinidir}) or a tox factor (py312: …) is not a requirement here.
    const deps = lines.filter((line) => !/[{}]/.test(line) && !/^[\w,.-]+:\s/.test(line));
    if (deps.length > 0) {
      reasons.push(`install: the deps of tox.ini's test environment (${deps.length} requirements)`);
      if (deps.length < lines.length)
        undecided.push(`tox.ini's deps left out: ${lines.filter((l) => !deps.includes(l)).join(', ')}`);
      return [
        {
          pip: [
            ...deps.flatMap((line) => (line.startsWith('-r') ? ['-r', line.slice(2).trim()] : [line])),
            '--editable',
            '.',
          ],
        },
      ];
    }
  }
  undecided.push('install: no test group, extra, requirements file or tox deps found; pytest and the project proposed');
  return [{ pip: ['pytest', '--editable', '.'] }];
}

/*
 * A project whose build backend cannot serve an editable install from the worktrees gets a regular one: meson-python's
 * editable loader rebuilds and imports the folder it was built from, whatever the worktree (the runner would test the
 * checkout's code, not the patched worktree's), and fails when that folder's build is gone. Installed regularly, the
 * extensions are built once and the runner copies them into each worktree (build-artefacts.ts), as for scikit-learn.
 */
const NOT_EDITABLE_BACKENDS = new Set(['mesonpy']);

function installedAsBuilt(install: InstallStep[], pyproject: TomlTables, reasons: string[]): InstallStep[] {
  const backend = stringOf(pyproject.get('build-system')?.get('build-backend'));
  if (backend === null || !NOT_EDITABLE_BACKENDS.has(backend)) return install;
  reasons.push(
    `install: the project regularly, not editable: build-backend ${backend} serves an editable install from the ` +
      'folder it was built in, not from the worktrees (the runner copies the built extensions into each)',
  );
  return install.map((step) => {
    if (typeof step === 'string') return step;
    const pip = step.pip.flatMap((item, index) =>
      item === '--editable' && /^\.(\[|$)/.test(step.pip[index + 1] ?? '') ? [] : [item],
    );
    return { ...step, pip };
  });
}

/** A group's requirements, `{include-group = ...}` followed; the project itself (`name[extra]`) left out. */
function groupItems(
  groups: ReadonlyMap<string, TomlValue>,
  name: string,
  projectName: string | null,
  seen: Set<string>,
): string[] {
  if (seen.has(name)) return [];
  seen.add(name);
  const value = groups.get(name);
  const items = Array.isArray(value) ? (value as readonly TomlValue[]) : [];
  return items.flatMap((item): string[] => {
    if (typeof item === 'string') {
      const requirementName = /^[A-Za-z0-9._-]+/.exec(item)?.[0];
      const self = projectName !== null && requirementName?.toLowerCase() === projectName.toLowerCase();
      return self ? [] : [item.trim()];
    }
    if (!Array.isArray(item) && typeof item === 'object' && 'include-group' in item) {
      const included = (item as Record<string, TomlValue>)['include-group'];
      return typeof included === 'string' ? groupItems(groups, included, projectName, seen) : [];
    }
    return [];
  });
}

/** An extras_require entry of a test name in setup.cfg or setup.py. */
function setupExtraOf(texts: ReadonlyMap<string, string>): { name: string; file: string } | null {
  const setupCfg = texts.get('setup.cfg') ?? '';
  const section = /^\[options\.extras_require\]\s*\n([\s\S]*?)(?=^\[|$(?![\s\S]))/m.exec(setupCfg)?.[1] ?? '';
  for (const name of TEST_NAMES) {
    if (new RegExp(`^${name}\\s*=`, 'm').test(section)) return { name, file: 'setup.cfg' };
  }
  const setupPy = texts.get('setup.py') ?? '';
  for (const name of TEST_NAMES) {
    if (new RegExp(`extras_require[\\s\\S]*["']${name}["']\\s*:`).test(setupPy)) return { name, file: 'setup.py' };
  }
  return null;
}

/** The CI workflows' pip lines, for the curator to compare. */
function ciHints(texts: ReadonlyMap<string, string>): string[] {
  const lines = new Set<string>();
  for (const [path, text] of texts) {
    if (!path.startsWith(`${WORKFLOW_FOLDER}/`)) continue;
    for (const match of text.matchAll(/(?:^|\s)((?:uv )?pip install [^\n#]+)/g)) {
      if (match[1] !== undefined) lines.add(`${path}: ${match[1].trim()}`);
    }
  }
  return [...lines].map((line) => `CI: ${line}`);
}

function stringOf(value: TomlValue | undefined): string | null {
  return typeof value === 'string' ? value : null;
}

function minorOf(version: string): number | null {
  const match = /^3\.(\d+)/.exec(version);
  return match?.[1] === undefined ? null : Number(match[1]);
}

/** Whether Python 3.`minor` satisfies a specifier set such as `>=3.10, <4` (only 3.x versions compared). */
export function satisfies(minor: number, specifiers: string): boolean {
  return specifiers
    .split(',')
    .map((clause) => clause.trim())
    .filter((clause) => clause !== '')
    .every((clause) => {
      const match = /^(~=|==|!=|>=|<=|>|<)\s*(\d+)(?:\.(\d+|\*))?(?:\.(\d+|\*))?/.exec(clause);
      if (match === null) return true;
      const [, op, majorText, minorText, microText] = match;
      const major = Number(majorText);
      const bound = minorText === undefined || minorText === '*' ? null : Number(minorText);
      const cmp = major !== 3 ? 3 - major : bound === null ? 0 : minor - bound;
      const hasMicro = microText !== undefined && microText !== '*' && Number(microText) > 0;
      switch (op) {
        case '>=':
        case '~=':
          return cmp >= 0;
        case '>':
          return hasMicro ? cmp >= 0 : cmp > 0;
        case '<':
          return cmp < 0 || (cmp === 0 && hasMicro);
        case '<=':
          return cmp <= 0;
        case '==':
          return cmp === 0 || (major === 3 && bound === null);
        default:
          // `!=3.11.*` rules the minor out; `!=3.11.4` one release of it only.
          return !(op === '!=' && cmp === 0 && microText === '*' && bound !== null);
      }
    });
}

/** The proposal as a variant to paste under the entry's `variants:` (or, with its python, as an entry's fields). */
export function proposalYaml(proposal: RecipeProposal): string {
  const quote = (text: string): string =>
    /^[A-Za-z0-9_.\-/=]+$/.test(text) && !/^\d/.test(text) ? text : JSON.stringify(text);
  const steps = proposal.install.map((step) =>
    typeof step === 'string'
      ? `          - ${JSON.stringify(step)}`
      : `          - pip: [${step.pip.map(quote).join(', ')}]`,
  );
  const why = `derived from the project files at ${proposal.commit.slice(0, 12)}: ${proposal.reasons.join('; ')}`;
  return [
    `# ${proposal.name} at ${proposal.commit} (${proposal.committedAt}); uv resolves versions as of ` +
      `${proposal.resolvedAsOf}`,
    ...proposal.reasons.map((reason) => `#   ${reason}`),
    ...(proposal.undecided.length === 0
      ? []
      : ['# for the curator:', ...proposal.undecided.map((line) => `#   - ${line}`)]),
    '    variants:',
    `      - from: "${proposal.committedAt}"`,
    `        why: ${JSON.stringify(why)}`,
    proposal.python === null ? '        # python: undecided (see above)' : `        python: "${proposal.python}"`,
    '        install:',
    ...steps,
    '',
  ].join('\n');
}
