import { DEFAULT_LEVEL_MODE, DEFAULT_REPEAT, LEVEL_MODES } from '@repocod/core';
import type { RemoteManifestEntry } from './manifest.js';
import {
  parseAbsentFiles,
  parseDeselect,
  parseEnv,
  parseInstall,
  parseStandIn,
  RUNNER_OWNED_ENV,
} from './manifest-compound-values.js';
import {
  defaultsTo,
  type EntryFields,
  type FieldText,
  field,
  optional,
  type OptionalPresence,
  type RequiredPresence,
  type RuleFieldRow,
  required,
  type TopFieldRow,
  type ValueParser,
} from './manifest-field-row.js';
import { type Origin, originOf } from './manifest-origin.js';
import { parseVariants } from './manifest-variants.js';
import {
  parseBlobsFrom,
  parseBuildInPlace,
  parseExcludeNewer,
  parseImportCheck,
  parseName,
  parsePackageRoot,
  parsePython,
  parseRepoName,
  parseRuns,
  parseBaselineReruns,
  parseStringList,
  parseTestRoots,
  parseTimeout,
} from './manifest-values.js';
import { type RecipeVariant, VARIANT_FIELD_KEYS } from './recipe-variant.js';

/**
 * The fields of a manifest, one row each: the key a manifest writes, the property of ManifestEntry it fills,
 * what the entry holds when it is left out, its check, and a description and example for people. The entry
 * checker reads the rows in order (which is also the order of "known fields: ..." in errors), and docs/runner.md
 * and the header of datasets/repocod/manifest.yaml list them (manifest-field-docs.ts). Adding a field is a row
 * here and a property of ManifestEntryFields; the checks at the end of this file hold the two together.
 */

/** REPOCOD used 600 s per evaluation; a manifest that says nothing gets the same. */
export const DEFAULT_TIMEOUT_SECONDS = 600;

/** A row of the origin: url, source and base_commit are checked together (manifest-origin.ts). */
function originField<P extends keyof Origin>(
  row: FieldText & { property: P; rule: string },
): RuleFieldRow<P, Origin[P]> {
  const { rule, ...text } = row;
  return { ...text, presence: { kind: 'rule', rule }, read: (entry) => originOf(entry)[row.property] };
}

const ONE_OF_URL_AND_SOURCE = 'exactly one of url and source';

export const LEVELS_FIELD: TopFieldRow = {
  key: 'levels',
  about:
    `the context-level mode the tasks are labelled with (${LEVEL_MODES.join(', ')}), unless \`--levels\` says ` +
    `otherwise (docs/tasks.md).`,
  presence: optional(DEFAULT_LEVEL_MODE),
  example: 'repocod-v1',
};

export const REPOSITORIES_FIELD: TopFieldRow & { readonly presence: RequiredPresence } = {
  key: 'repositories',
  about: 'the repositories, one `- name: ...` item each with the fields below.',
  presence: required('the list of repositories'),
  example: '[{name: flask, source: ../clones/flask, python: "3.11", install: [{pip: [.]}], test_roots: [tests]}]',
};

/** The fields at the top of a manifest, in order. */
export const MANIFEST_TOP_FIELDS: readonly TopFieldRow[] = [LEVELS_FIELD, REPOSITORIES_FIELD];

export const MANIFEST_ENTRY_FIELDS = [
  field({
    key: 'name',
    property: 'name',
    presence: required("REPOCOD's name for it"),
    parse: parseName,
    about: 'REPOCOD\'s name for the repository (unique; letters, digits, ".", "_", "-").',
    example: 'flask',
  }),
  originField({
    key: 'url',
    property: 'url',
    rule: ONE_OF_URL_AND_SOURCE,
    about: 'where to clone it from, a git URL.',
    example: 'https://github.com/pallets/flask.git',
  }),
  originField({
    key: 'source',
    property: 'source',
    rule: ONE_OF_URL_AND_SOURCE,
    about:
      'a local folder to take it from instead (relative to the project root); without base_commit the ' +
      'folder is used as it is.',
    example: '../clones/flask',
  }),
  field({
    key: 'repo',
    property: 'repo',
    presence: optional('owner/name read from url; a source entry without it is named by its name'),
    parse: parseRepoName,
    about:
      "the repository as GitHub, the Hub and SWE-bench name it: task ids are `owner__name-…` and each row's " +
      "repo is this. `repocod manifest add` writes it (from the clone's origin, or --owner).",
    example: 'pallets/click',
  }),
  originField({
    key: 'base_commit',
    property: 'baseCommit',
    rule: 'required with url',
    about: 'the 40-character sha the tasks are cut from.',
    example: '2fec0b206c6e83ea813ab26597e15c96fab08be7',
  }),
  field({
    key: 'python',
    property: 'python',
    presence: required('the Python version'),
    parse: parsePython,
    about:
      'the interpreter version the environment is made with ("3.11" or "3.11.9"; quote it, or YAML ' +
      'reads 3.10 as the number 3.1).',
    example: '"3.11"',
  }),
  field({
    key: 'package_root',
    property: 'packageRoot',
    presence: defaultsTo('.', () => '.'),
    parse: parsePackageRoot,
    about:
      'the folder of the Python project (its pyproject.toml / setup.py), relative to the repository root. ' +
      'pytest runs with this folder as its working directory.',
    example: 'packages/python/plotly',
  }),
  field({
    key: 'install',
    property: 'install',
    presence: required('what to install'),
    parse: parseInstall,
    about:
      "the steps, in order, at the repository root with the environment's bin first on PATH: " +
      "`- pip: [arguments]` installs what pip's arguments name (requirements, -r FILE, --editable PATH[extras], " +
      "options) with the environment's installer, and the date decides the versions (exclude_newer); a plain " +
      'string is a shell command, for what is not an install.',
    example: '[{pip: [--editable, ".[test]"]}]',
  }),
  field({
    key: 'exclude_newer',
    property: 'excludeNewer',
    presence: optional("the base commit's committer timestamp"),
    parse: parseExcludeNewer,
    about: 'the date package versions are resolved as of: "2024-09-01", a timestamp with its zone, or none (no limit).',
    example: '"2024-09-01"',
  }),
  field({
    key: 'build_in_place',
    property: 'buildInPlace',
    presence: optional('a job whose patch changes a compiled source is refused, not run on stale extensions'),
    parse: parseBuildInPlace,
    about:
      'for a compiled project, the shell command that rebuilds its extensions in a working copy (run at ' +
      "package_root) when a job's patch changes a compiled source; the other jobs share the environment's build.",
    example: 'python setup.py build_ext --inplace',
  }),
  field({
    key: 'blobs_from',
    property: 'blobsFrom',
    presence: optional(),
    parse: parseBlobsFrom,
    about:
      'distributions on the package index (NAME==VERSION) that ship, byte for byte, files a size-limited ' +
      'clone lacks; a file is taken from them when its git blob id matches.',
    example: '["plotly==5.24.1"]',
  }),
  field({
    key: 'absent_files',
    property: 'absentFiles',
    presence: optional('a file the clone lacks stops the checkout'),
    parse: parseAbsentFiles,
    about:
      'files of the base commit a size-limited clone lacks and no distribution ships, left out of every working ' +
      'copy (a sparse checkout) instead: {path: relative to the repository root, why: why no test needs it}.',
    example: '[{path: js/lib/mimeExtension.js, why: the JupyterLab extension, built from TypeScript}]',
  }),
  field({
    key: 'import_check',
    property: 'importCheck',
    presence: optional('every package folder of the project'),
    parse: parseImportCheck,
    about:
      "the top-level packages a worktree must import from itself, where the project's folder also holds " +
      'development tools that the environment does not install.',
    example: '[plotly, _plotly_utils]',
  }),
  field({
    key: 'test_roots',
    property: 'testRoots',
    presence: required('the folders given to pytest'),
    parse: parseTestRoots,
    about: 'folders or files given to pytest, relative to package_root.',
    example: '[tests]',
  }),
  field({
    key: 'pytest_args',
    property: 'pytestArgs',
    presence: defaultsTo('[]', (): string[] => []),
    parse: parseStringList,
    about: 'extra pytest arguments.',
    example: '[-p, no:cacheprovider]',
  }),
  field({
    key: 'deselect',
    property: 'deselect',
    presence: defaultsTo('[]', () => []),
    parse: parseDeselect,
    about: 'known-bad tests, left out of every run: {id: pytest node id relative to package_root, reason}.',
    example: '[{id: tests/test_x.py::test_y, reason: needs the network}]',
  }),
  field({
    key: 'env',
    property: 'env',
    presence: defaultsTo('{}', (): Record<string, string> => ({})),
    parse: parseEnv,
    about:
      `extra environment variables for installs and test runs (not ${RUNNER_OWNED_ENV.join(', ')}: the ` +
      `runner sets those).`,
    example: '{MPLBACKEND: Agg}',
  }),
  field({
    key: 'timeout',
    property: 'timeoutSeconds',
    presence: defaultsTo(String(DEFAULT_TIMEOUT_SECONDS), () => DEFAULT_TIMEOUT_SECONDS),
    parse: parseTimeout,
    about: "seconds per job, REPOCOD's limit for one task's tests; in a whole-suite run each test's limit.",
    example: '600',
  }),
  field({
    key: 'baseline_runs',
    property: 'baselineRuns',
    presence: optional(`the command's --repeat (${DEFAULT_REPEAT})`),
    parse: parseRuns,
    about:
      'how many times mining runs the whole suite at the base commit (k), when it must differ from the ' +
      "command's --repeat: a suite that takes hours runs once, and validation then runs each selected task's gold " +
      'state k times itself. Part of the mining key.',
    example: '1',
  }),
  field({
    key: 'baseline_reruns',
    property: 'baselineReruns',
    presence: optional('suite'),
    parse: parseBaselineReruns,
    about: [
      "what mining's baseline runs after its first, traced run of the whole suite: `suite`, the whole suite",
      "k - 1 times more (REPOCOD's way); `relevant`, only the tests that ended in a mined function's",
      'FAIL_TO_PASS, k - 1 times, once the mutations named them (a test that does not pass in all k runs',
      'leaves every FAIL_TO_PASS either way). With `relevant` validation takes the gold check from the',
      'baseline. Part of the mining key when `relevant`.',
    ].join(' '),
    example: 'relevant',
  }),
  field({
    key: 'validate_runs',
    property: 'validateRuns',
    presence: optional(String(DEFAULT_REPEAT)),
    parse: parseRuns,
    about:
      "validation's k (runs of each task's gold state, or of mining's baseline that answers them) when " +
      "the command gives no --repeat. Part of each validation's key.",
    example: '1',
  }),
  field({
    key: 'stand_in',
    property: 'standIn',
    presence: optional(),
    parse: parseStandIn,
    about:
      '{sdist: URL of a .tar.gz, sha256, why}: a source distribution that stands in for the commit where ' +
      'the clone cannot be had; `repocod rebuild` fetches it and checks its sha256 when no --source is given.',
    example: '{sdist: "https://example.org/a-1.0.tar.gz", sha256: <64 hex digits>, why: the clone is too large}',
  }),
  field({
    key: 'variants',
    property: 'variants',
    presence: optional('the fields above apply at every commit'),
    // The rows are read when a manifest is checked, after the table is made (a variant's fields are its rows).
    parse: (document, list): readonly RecipeVariant[] =>
      parseVariants(document, list, MANIFEST_ENTRY_FIELDS, MANIFEST_ENTRY_KEYS),
    about:
      `the recipe of other eras, oldest first: each item sets some of ${VARIANT_FIELD_KEYS.join(', ')} for the ` +
      `base commits from a moment (a day or a timestamp with its zone: committed on or after it) or from a commit ` +
      `(it and ` +
      `its descendants) on, with \`why\` (required: what changed in the project). At a base commit the last variant ` +
      `that ` +
      `applies replaces those fields of the entry, one by one; before the first, the entry's own apply ` +
      `(docs/fresh.md).`,
    example:
      '[{from: "2025-05-12T00:58:53Z", why: "requirements/tests.txt became the group tests", install: [{pip: ' +
      '[pytest, ' +
      '--editable, .]}]}]',
  }),
] as const;

/** The keys an entry may have, in the rows' order. */
export const MANIFEST_ENTRY_KEYS: readonly string[] = MANIFEST_ENTRY_FIELDS.map((row) => row.key);

/*
 * The table and ManifestEntryFields (with the origin's url, source and baseCommit) name the same properties,
 * with values that fit, and the rows that may be left out without a default are the optional properties.
 * `levels` is the manifest's, set on every entry by manifest-schema.ts; `manifestCommit` is set by --at
 * (manifest-at-overrides.ts), never written. tsc fails here when they part.
 */
type EntryProperties = Omit<RemoteManifestEntry, keyof Origin>;
type RuntimeProperties = 'levels' | 'manifestCommit';
type Row = (typeof MANIFEST_ENTRY_FIELDS)[number];
type RowValue<R> = R extends { parse: ValueParser<infer T> }
  ? T
  : R extends { read: (entry: EntryFields) => infer T }
    ? T
    : never;
type TableValues = { [R in Row as R['property']]: RowValue<R> };
/** The origin's fields one by one (Origin itself ties them together: a url comes with its commit). */
type OriginValues = { [K in 'url' | 'source' | 'baseCommit']: Origin[K] };
type EntryValues = Required<Omit<EntryProperties, RuntimeProperties>> & OriginValues;
type OptionalKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? K : never }[keyof T];
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Holds<T extends true> = T;

/** Compiles only while the table and the entry type agree (see above). */
export type ManifestFieldTableMatchesTheEntry = [
  Holds<Same<Row['property'], keyof EntryValues>>,
  Holds<TableValues extends EntryValues ? true : false>,
  Holds<
    Same<
      Extract<Row, { presence: OptionalPresence }>['property'],
      Exclude<OptionalKeys<EntryProperties>, RuntimeProperties>
    >
  >,
];
