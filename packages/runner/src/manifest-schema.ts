import type { LevelMode } from '@repocod/core';
import { LEVEL_MODES, RepocodError } from '@repocod/core';
import { isAlias, isMap, isScalar, isSeq, type Document, type LineCounter, type Node, type YAMLMap } from 'yaml';
import type { InstallStep } from './install-step.js';
import type {
  DeselectedTest,
  LocalManifestEntry,
  Manifest,
  ManifestEntry,
  RemoteManifestEntry,
  StandIn,
} from './manifest.js';
import { closestName } from './manifest-suggest.js';
import { isResolutionDateText } from './resolution-date.js';

/** Where the document came from: error messages quote the file, the line and the original text. */
export interface ManifestSource {
  readonly file: string;
  readonly text: string;
  readonly lineCounter: LineCounter;
}

/** REPOCOD used 600 s per evaluation; a manifest that says nothing gets the same. */
export const DEFAULT_TIMEOUT_SECONDS = 600;

const TOP_FIELDS = ['levels', 'repositories'] as const;
const ENTRY_FIELDS = [
  'name',
  'url',
  'source',
  'base_commit',
  'python',
  'package_root',
  'install',
  'exclude_newer',
  'build_in_place',
  'blobs_from',
  'import_check',
  'test_roots',
  'pytest_args',
  'deselect',
  'env',
  'timeout',
  'baseline_runs',
  'validate_runs',
  'stand_in',
] as const;
const DESELECT_FIELDS = ['id', 'reason'] as const;
const STAND_IN_FIELDS = ['sdist', 'sha256', 'why'] as const;
const SHA256 = /^[0-9a-f]{64}$/;
const RESOLVED_INSTALL_FIELDS = ['pip'] as const;

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
const SHA = /^[0-9a-fA-F]{40}$/;
const PYTHON_VERSION = /^3\.\d{1,2}(\.\d{1,2})?$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** https://..., ssh://..., git://..., file://... or scp-like git@host:owner/repo.git */
const GIT_URL = /^(?:(?:https?|ssh|git|file):\/\/\S+|[\w.-]+@[\w.-]+:\S+)$/;
/** `path.py`, then `::name` parts; only the last part may carry `[parameters]`, which may hold anything. */
const NODE_ID = /^[^\s:\\/][^\s:\\]*\.(?:py|rst|txt|md)(?:::[^\s:[\]]+)*(?:::[^\s:[\]]+\[.*\])?$/;

/**
 * The runner sets these itself so that runs are deterministic and use the right interpreter; a manifest
 * that set them would silently undo that.
 */
const RUNNER_OWNED_ENV = ['PATH', 'VIRTUAL_ENV', 'PYTHONHASHSEED', 'TZ', 'LC_ALL'] as const;

type Origin =
  | Pick<RemoteManifestEntry, 'url' | 'source' | 'baseCommit'>
  | Pick<LocalManifestEntry, 'url' | 'source' | 'baseCommit'>;

/** A value in the document and where to point when it is wrong. */
interface Field {
  readonly path: string;
  /** The value, aliases followed; null when the key is present with nothing after it. */
  readonly node: Node | null;
  readonly line: number;
}

/** Checks a parsed manifest document field by field; the first problem is thrown with its line. */
export function validateManifest(doc: Document, source: ManifestSource): Manifest {
  return new ManifestChecker(doc, source).manifest();
}

class ManifestChecker {
  constructor(
    private readonly doc: Document,
    private readonly source: ManifestSource,
  ) {}

  manifest(): Manifest {
    const root = this.resolve(this.doc.contents as Node | null, 'the manifest', 1);
    if (root === null || (isScalar(root) && root.value === null)) {
      this.fail(1, 'the manifest', 'is empty (expected a "repositories:" list of repositories)');
    }
    if (!isMap(root)) {
      this.fail(
        this.lineOf(root, 1),
        'the manifest',
        `must be a mapping with a "repositories:" list (got ${this.describe(root)})`,
      );
    }
    const fields = this.fieldsOf(root, '', TOP_FIELDS, 1);
    const levelsField = fields.get('levels');
    const levels = levelsField === undefined ? undefined : this.levelMode(levelsField);
    const list = this.required(fields, 'repositories', 'repositories', 1, 'the list of repositories');
    if (list.node === null || !isSeq(list.node)) {
      this.fail(
        list.line,
        'repositories',
        `must be a list of repositories, one "- name: ..." item each (got ${this.describe(list.node)})`,
      );
    }
    if (list.node.items.length === 0) this.fail(list.line, 'repositories', 'lists no repository (add at least one)');

    const entries: ManifestEntry[] = [];
    const firstUse = new Map<string, { index: number; line: number }>();
    list.node.items.forEach((item, index) => {
      const field = this.item(item as Node | null, `repositories[${index}]`, list.line);
      const entry = { ...this.entry(field), ...(levels === undefined ? {} : { levels }) };
      const nameLine = this.lineOf(this.child(field, 'name'), field.line);
      const earlier = firstUse.get(entry.name);
      if (earlier !== undefined) {
        this.fail(
          nameLine,
          `repositories[${index}].name`,
          `"${entry.name}" is already used by repositories[${earlier.index}] (line ${earlier.line}); names must be \
unique`,
        );
      }
      firstUse.set(entry.name, { index, line: nameLine });
      entries.push(entry);
    });
    return { file: this.source.file, repositories: entries };
  }

  private entry(field: Field): ManifestEntry {
    if (field.node === null || !isMap(field.node)) {
      this.fail(
        field.line,
        field.path,
        `must be a mapping of fields (name, url, base_commit, ...) (got ${this.describe(field.node)})`,
      );
    }
    const fields = this.fieldsOf(field.node, field.path, ENTRY_FIELDS, field.line);
    const at = (key: (typeof ENTRY_FIELDS)[number]): Field | undefined => fields.get(key);

    const name = this.string(
      this.required(fields, 'name', field.path, field.line, "REPOCOD's name for it, e.g. name: flask"),
    );
    if (!NAME.test(name.value)) {
      this.fail(
        name.line,
        name.path,
        `must start with a letter or digit and hold only letters, digits, ".", "_" and "-" (got \
${JSON.stringify(name.value)})`,
      );
    }

    const origin = this.origin(field, at('url'), at('source'), at('base_commit'));

    const python = this.python(
      this.required(fields, 'python', field.path, field.line, 'the Python version, e.g. python: "3.11"'),
    );
    const packageRootField = at('package_root');
    const packageRoot =
      packageRootField === undefined ? '.' : this.relativePath(packageRootField, 'the repository root');
    const install = this.install(
      this.required(
        fields,
        'install',
        field.path,
        field.line,
        'what to install, e.g. install: [{pip: [--editable, ".[test]"]}]',
      ),
    );
    const excludeNewer = this.excludeNewer(at('exclude_newer'));
    const buildInPlaceField = at('build_in_place');
    const buildInPlace = buildInPlaceField === undefined ? undefined : this.buildInPlace(buildInPlaceField);
    const blobsFromField = at('blobs_from');
    const blobsFrom = blobsFromField === undefined ? undefined : this.blobsFrom(blobsFromField);
    const importCheckField = at('import_check');
    const importCheck = importCheckField === undefined ? undefined : this.importCheck(importCheckField);
    const testRoots = this.testRoots(
      this.required(
        fields,
        'test_roots',
        field.path,
        field.line,
        'the folders given to pytest, e.g. test_roots: [tests]',
      ),
    );
    const pytestArgsField = at('pytest_args');
    const pytestArgs = pytestArgsField === undefined ? [] : this.stringList(pytestArgsField);
    const deselect = this.deselect(at('deselect'));
    const env = this.env(at('env'));
    const timeoutSeconds = this.timeout(at('timeout'));
    const baselineRunsField = at('baseline_runs');
    const baselineRuns = baselineRunsField === undefined ? undefined : this.baselineRuns(baselineRunsField);
    const validateRunsField = at('validate_runs');
    const validateRuns = validateRunsField === undefined ? undefined : this.runs(validateRunsField, 'validate_runs: 1');
    const standInField = at('stand_in');
    const standIn = standInField === undefined ? undefined : this.standIn(standInField);

    return {
      name: name.value,
      ...origin,
      python,
      packageRoot,
      install,
      ...(excludeNewer === undefined ? {} : { excludeNewer }),
      ...(buildInPlace === undefined ? {} : { buildInPlace }),
      ...(blobsFrom === undefined ? {} : { blobsFrom }),
      ...(importCheck === undefined ? {} : { importCheck }),
      testRoots,
      pytestArgs,
      deselect,
      env,
      timeoutSeconds,
      ...(baselineRuns === undefined ? {} : { baselineRuns }),
      ...(validateRuns === undefined ? {} : { validateRuns }),
      ...(standIn === undefined ? {} : { standIn }),
    };
  }

  /** Where the repository comes from: a url with its commit, or a local folder (commit optional). */
  private origin(
    entry: Field,
    urlField: Field | undefined,
    sourceField: Field | undefined,
    commitField: Field | undefined,
  ): Origin {
    if (urlField !== undefined && sourceField !== undefined) {
      this.fail(
        sourceField.line,
        entry.path,
        'has both url and source; give exactly one (url to clone, or source for a local folder)',
      );
    }
    let baseCommit: string | null = null;
    if (commitField !== undefined) {
      const parsed = this.string(commitField, 'a 40-character commit sha');
      if (!SHA.test(parsed.value)) {
        this.fail(parsed.line, parsed.path, `must be a 40-character commit sha (got ${JSON.stringify(parsed.value)})`);
      }
      baseCommit = parsed.value.toLowerCase();
    }
    if (sourceField !== undefined) return { url: null, source: this.string(sourceField).value, baseCommit };
    if (urlField === undefined) {
      this.fail(entry.line, entry.path, 'needs a url (to clone) or a source (a local folder); give exactly one');
    }
    const url = this.string(urlField);
    if (!GIT_URL.test(url.value)) {
      this.fail(
        url.line,
        url.path,
        `must be a git URL such as https://github.com/owner/repo.git (got ${JSON.stringify(url.value)})`,
      );
    }
    if (baseCommit === null) {
      this.fail(
        entry.line,
        `${entry.path}.base_commit`,
        'is required when url is given (the 40-character sha of the commit to check out)',
      );
    }
    return { url: url.value, source: null, baseCommit };
  }

  private python(field: Field): string {
    const node = field.node;
    if (isScalar(node) && typeof node.value === 'number') {
      const raw = this.raw(node);
      const misread = String(node.value) === raw ? '' : `, which YAML reads as the number ${String(node.value)}`;
      this.fail(
        field.line,
        field.path,
        `must be a quoted version string like "3.11" (got ${raw}${misread}; write "${raw}")`,
      );
    }
    const version = this.string(field, 'a version string like "3.11"');
    if (!PYTHON_VERSION.test(version.value)) {
      this.fail(
        version.line,
        version.path,
        `must be a Python 3 version like "3.11" or "3.11.9" (got ${JSON.stringify(version.value)})`,
      );
    }
    return version.value;
  }

  private testRoots(field: Field): string[] {
    const roots = this.list(field);
    if (roots.length === 0)
      this.fail(field.line, field.path, 'must name at least one folder or file for pytest (e.g. [tests])');
    const seen = new Set<string>();
    return roots.map((item) => {
      const root = this.relativePath(item, 'the package root');
      if (seen.has(root)) this.fail(item.line, item.path, `repeats ${JSON.stringify(root)}; list each test root once`);
      seen.add(root);
      return root;
    });
  }

  /** Shell commands (strings) and resolved installs (`{pip: [arguments]}`). */
  private install(field: Field): InstallStep[] {
    return this.list(field).map((item) => {
      if (item.node === null || !isMap(item.node))
        return this.string(item, 'a shell command or {pip: [arguments]}').value;
      const fields = this.fieldsOf(item.node, item.path, RESOLVED_INSTALL_FIELDS, item.line);
      const pip = this.stringList(
        this.required(
          fields,
          'pip',
          item.path,
          item.line,
          'the arguments of pip install, e.g. pip: [-r, requirements.txt]',
        ),
      );
      if (pip.length === 0)
        this.fail(
          item.line,
          `${item.path}.pip`,
          'names nothing to install (give requirements, -r FILE or --editable PATH)',
        );
      return { pip };
    });
  }

  private excludeNewer(field: Field | undefined): string | undefined {
    if (field === undefined) return undefined;
    const node = field.node;
    // YAML reads an unquoted 2024-09-01 as a string in the core schema, but a bare timestamp may come as a Date.
    const value =
      isScalar(node) && node.value instanceof Date
        ? node.value.toISOString()
        : this.string(field, 'a date such as "2024-09-01", or none').value;
    if (!isResolutionDateText(value)) {
      this.fail(
        field.line,
        field.path,
        `must be a date like "2024-09-01", a timestamp with its zone like "2024-09-01T12:00:00Z", or none (got \
${JSON.stringify(value)})`,
      );
    }
    return value;
  }

  private buildInPlace(field: Field): string {
    const what = 'the shell command that builds the extensions in place, e.g. "python setup.py build_ext --inplace"';
    return this.string(field, what).value;
  }

  private blobsFrom(field: Field): string[] {
    const items = this.list(field);
    if (items.length === 0) {
      const example = 'e.g. blobs_from: ["plotly==5.24.1"]';
      this.fail(field.line, field.path, `lists no distribution (${example}); remove it or name one`);
    }
    return items.map((item) => {
      const requirement = this.string(item, 'a pinned distribution such as "plotly==5.24.1"');
      if (!/^[A-Za-z0-9][A-Za-z0-9._-]*==[A-Za-z0-9.+!_-]+$/.test(requirement.value)) {
        const got = JSON.stringify(requirement.value);
        const what = 'must pin one release, NAME==VERSION, e.g. "plotly==5.24.1"';
        this.fail(requirement.line, requirement.path, `${what} (got ${got})`);
      }
      return requirement.value;
    });
  }

  private importCheck(field: Field): string[] {
    const items = this.list(field);
    if (items.length === 0) {
      this.fail(
        field.line,
        field.path,
        'names no package (e.g. import_check: [plotly, _plotly_utils]); remove it or name one',
      );
    }
    return items.map((item) => {
      const name = this.string(item, 'a top-level package name such as plotly');
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name.value)) {
        this.fail(
          name.line,
          name.path,
          `must be a top-level package name such as plotly (got ${JSON.stringify(name.value)})`,
        );
      }
      return name.value;
    });
  }

  private deselect(field: Field | undefined): DeselectedTest[] {
    if (field === undefined) return [];
    const seen = new Set<string>();
    return this.list(field).map((item) => {
      if (item.node === null || !isMap(item.node)) {
        this.fail(
          item.line,
          item.path,
          `must be a mapping {id: <pytest node id>, reason: <why>} (got ${this.describe(item.node)})`,
        );
      }
      const fields = this.fieldsOf(item.node, item.path, DESELECT_FIELDS, item.line);
      const id = this.string(this.required(fields, 'id', item.path, item.line, 'the pytest node id of the test'));
      if (!NODE_ID.test(id.value) || id.value.split(/::/)[0]?.split('/').includes('..')) {
        this.fail(
          id.line,
          id.path,
          `must be a pytest node id like tests/test_x.py::TestY::test_z[param] (got ${JSON.stringify(id.value)})`,
        );
      }
      if (seen.has(id.value))
        this.fail(id.line, id.path, `deselects ${JSON.stringify(id.value)} a second time; list each test once`);
      seen.add(id.value);
      const reason = this.string(this.required(fields, 'reason', item.path, item.line, 'why the test is left out'));
      return { id: id.value, reason: reason.value };
    });
  }

  private env(field: Field | undefined): Record<string, string> {
    if (field === undefined) return {};
    if (field.node === null || !isMap(field.node)) {
      this.fail(
        field.line,
        field.path,
        `must be a mapping of variable names to values, e.g. env: {MPLBACKEND: Agg} (got ${this.describe(field.node)})`,
      );
    }
    const env: Record<string, string> = {};
    for (const pair of field.node.items) {
      const keyNode = pair.key as Node | null;
      const key = isScalar(keyNode) ? keyNode.value : undefined;
      const keyLine = this.lineOf(keyNode, field.line);
      if (typeof key !== 'string' || !ENV_NAME.test(key)) {
        this.fail(
          keyLine,
          field.path,
          `has ${this.describe(keyNode)} as a variable name; names are letters, digits and "_", not starting with a \
digit`,
        );
      }
      const path = `${field.path}.${key}`;
      if ((RUNNER_OWNED_ENV as readonly string[]).includes(key)) {
        this.fail(
          keyLine,
          path,
          'is set by the runner (TZ=UTC, PYTHONHASHSEED=0, LC_ALL=C.UTF-8 for deterministic runs; PATH and VIRTUAL_ENV \
select the environment); remove it',
        );
      }
      const value = this.string(
        this.valueField(pair.value as Node | null, path, keyLine),
        'a string (quote numbers, e.g. "1")',
        true,
      );
      env[key] = value.value;
    }
    return env;
  }

  /** The project's context-level mode (LEVEL_MODES): every repository of the manifest is labelled with it. */
  private levelMode(field: Field): LevelMode {
    const { value, line, path } = this.string(field, 'a level mode');
    if (!(LEVEL_MODES as readonly string[]).includes(value))
      this.fail(line, path, `must be one of ${LEVEL_MODES.join(', ')} (got ${JSON.stringify(value)})`);
    return value as LevelMode;
  }

  private timeout(field: Field | undefined): number {
    if (field === undefined) return DEFAULT_TIMEOUT_SECONDS;
    const node = field.node;
    const value = isScalar(node) ? node.value : undefined;
    if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0) {
      this.fail(
        field.line,
        field.path,
        `must be a whole number of seconds greater than 0, e.g. timeout: 600 (got ${this.describe(node)})`,
      );
    }
    return value;
  }

  private baselineRuns(field: Field): number {
    return this.runs(field, 'baseline_runs: 1');
  }

  private runs(field: Field, example: string): number {
    const node = field.node;
    const value = isScalar(node) ? node.value : undefined;
    if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0) {
      this.fail(
        field.line,
        field.path,
        `must be a whole number of runs, at least 1, e.g. ${example} (got ${this.describe(node)})`,
      );
    }
    return value;
  }

  /** A source distribution that stands in for the commit where the clone cannot be had (see StandIn). */
  private standIn(field: Field): StandIn {
    if (field.node === null || !isMap(field.node)) {
      this.fail(
        field.line,
        field.path,
        `must be a mapping {sdist: <https URL of a .tar.gz>, sha256: <64 hex digits>, why: <reason>} (got \
${this.describe(field.node)})`,
      );
    }
    const fields = this.fieldsOf(field.node, field.path, STAND_IN_FIELDS, field.line);
    const sdist = this.string(this.required(fields, 'sdist', field.path, field.line, 'the URL of the .tar.gz'));
    if (!/^https:\/\/\S+\.tar\.gz$/.test(sdist.value))
      this.fail(sdist.line, sdist.path, `must be an https URL of a .tar.gz (got ${JSON.stringify(sdist.value)})`);
    const sha256 = this.string(this.required(fields, 'sha256', field.path, field.line, 'the archive’s sha256'));
    if (!SHA256.test(sha256.value))
      this.fail(sha256.line, sha256.path, `must be 64 lowercase hex digits (got ${JSON.stringify(sha256.value)})`);
    const why = this.string(this.required(fields, 'why', field.path, field.line, 'why it stands in for the commit'));
    return { sdist: sdist.value, sha256: sha256.value, why: why.value };
  }

  /** A relative path that stays inside its base folder: the runner joins it onto a working copy. */
  private relativePath(field: Field, base: string): string {
    const path = this.string(field);
    const segments = path.value.split('/');
    if (
      path.value.startsWith('/') ||
      path.value.includes('\\') ||
      /^[A-Za-z]:/.test(path.value) ||
      segments.includes('..')
    ) {
      this.fail(
        path.line,
        path.path,
        `must be a path relative to ${base}, with "/" separators and no ".." (got ${JSON.stringify(path.value)})`,
      );
    }
    return path.value;
  }

  private stringList(field: Field): string[] {
    return this.list(field).map((item) => this.string(item).value);
  }

  private list(field: Field): Field[] {
    if (field.node === null || !isSeq(field.node)) {
      this.fail(
        field.line,
        field.path,
        `must be a list, e.g. [a, b] or one "- item" per line (got ${this.describe(field.node)})`,
      );
    }
    return field.node.items.map((item, index) => this.item(item as Node | null, `${field.path}[${index}]`, field.line));
  }

  private string(field: Field, what = 'a string', allowEmpty = false): { value: string; line: number; path: string } {
    const node = field.node;
    if (node === null || (isScalar(node) && node.value === null)) {
      this.fail(field.line, field.path, `must not be empty (give ${what}, or remove the field where it is optional)`);
    }
    if (!isScalar(node)) this.fail(field.line, field.path, `must be ${what} (got ${this.describe(node)})`);
    if (typeof node.value !== 'string') {
      this.fail(field.line, field.path, `must be ${what} (got ${this.describe(node)}; quote it to make it a string)`);
    }
    if (!allowEmpty && node.value.trim() === '') this.fail(field.line, field.path, `must not be empty (give ${what})`);
    return { value: node.value, line: field.line, path: field.path };
  }

  private required(
    fields: Map<string, Field>,
    key: string,
    parentPath: string,
    parentLine: number,
    hint: string,
  ): Field {
    const field = fields.get(key);
    if (field === undefined) this.fail(parentLine, joinPath(parentPath, key), `is required (${hint})`);
    return field;
  }

  /** The fields of a mapping by key; a key that is not a known field stops here, with a suggestion. */
  private fieldsOf(map: YAMLMap, path: string, known: readonly string[], line: number): Map<string, Field> {
    const fields = new Map<string, Field>();
    for (const pair of map.items) {
      const keyNode = pair.key as Node | null;
      const keyLine = this.lineOf(keyNode, line);
      const key = isScalar(keyNode) ? keyNode.value : undefined;
      if (typeof key !== 'string') {
        this.fail(
          keyLine,
          path === '' ? 'the manifest' : path,
          `has ${this.describe(keyNode)} as a field name (field names are words like ${known[0] ?? 'name'})`,
        );
      }
      if (!known.includes(key)) {
        const closest = closestName(key, known);
        const suggestion = closest === null ? '' : `did you mean "${closest}"? `;
        this.fail(
          keyLine,
          joinPath(path, key),
          `is not a known field (${suggestion}known fields: ${known.join(', ')})`,
        );
      }
      fields.set(key, this.valueField(pair.value as Node | null, joinPath(path, key), keyLine));
    }
    return fields;
  }

  private child(field: Field, key: string): Node | null {
    if (field.node === null || !isMap(field.node)) return null;
    const pair = field.node.items.find((candidate) => isScalar(candidate.key) && candidate.key.value === key);
    return (pair?.key as Node | undefined) ?? null;
  }

  private valueField(value: Node | null, path: string, keyLine: number): Field {
    const node = this.resolve(value, path, keyLine);
    return { path, node, line: this.lineOf(value, keyLine) };
  }

  private item(value: Node | null, path: string, fallbackLine: number): Field {
    return { path, node: this.resolve(value, path, fallbackLine), line: this.lineOf(value, fallbackLine) };
  }

  /** Follows `*anchor` references, so shared blocks may be written once and reused. */
  private resolve(node: Node | null, path: string, line: number): Node | null {
    if (!isAlias(node)) return node;
    const target = node.resolve(this.doc);
    if (target === undefined)
      this.fail(this.lineOf(node, line), path, `refers to an anchor that is not defined (*${node.source})`);
    return target;
  }

  private lineOf(node: Node | null | undefined, fallback: number): number {
    const start = node?.range?.[0];
    return start === undefined ? fallback : this.source.lineCounter.linePos(start).line;
  }

  /** The value as the user wrote it: `3.10` stays `3.10` even though YAML read it as 3.1. */
  private raw(node: Node): string {
    const range = node.range;
    return range === undefined || range === null
      ? String(isScalar(node) ? node.value : '')
      : this.source.text.slice(range[0], range[1]).trim();
  }

  private describe(node: Node | null | undefined): string {
    if (node === null || node === undefined) return 'nothing';
    if (isMap(node)) return 'a mapping';
    if (isSeq(node)) return 'a list';
    if (isScalar(node)) {
      if (node.value === null) return 'nothing';
      if (typeof node.value === 'string') return JSON.stringify(node.value);
      if (typeof node.value === 'number') return `the number ${this.raw(node)}`;
      if (typeof node.value === 'boolean') return `the boolean ${String(node.value)}`;
      return this.raw(node);
    }
    return this.raw(node);
  }

  private fail(line: number, path: string, reason: string): never {
    throw new RepocodError('config-invalid', `${this.source.file}:${line}: ${path} ${reason}`);
  }
}

function joinPath(parent: string, key: string): string {
  return parent === '' ? key : `${parent}.${key}`;
}
