import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isRepocodError } from '@repocod/core';
import { describe, expect, it } from 'vitest';
import { loadManifest, parseManifest } from './manifest.js';

const FOLDER = mkdtempSync(join(tmpdir(), 'repocod-manifest-schema-'));
let written = 0;

/** Writes the manifest to its own temp file, as a user's file would be, and returns the path. */
function manifestFile(lines: readonly string[]): string {
  written += 1;
  const file = join(FOLDER, `manifest-${written}.yaml`);
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

function load(lines: readonly string[]): ReturnType<typeof loadManifest> {
  return loadManifest(manifestFile(lines));
}

/** The message of the config-invalid error that loading these lines gives, with the file left out. */
function problem(lines: readonly string[]): string {
  const file = manifestFile(lines);
  try {
    loadManifest(file);
  } catch (error) {
    if (!isRepocodError(error)) throw error;
    expect(error.code).toBe('config-invalid');
    expect(error.message.startsWith(`${file}:`)).toBe(true);
    return error.message.slice(file.length + 1);
  }
  throw new Error(`expected ${lines.join('\n')} to be refused`);
}

/** A valid one-repository manifest; line numbers in the cases below refer to it. */
const HEAD = [
  'repositories:', //                                                1
  '  - name: flask', //                                              2
  '    url: https://github.com/pallets/flask.git', //                3
  '    base_commit: 2fec0b206c6e83ea813ab26597e15c96fab08be7', //    4
  '    python: "3.11"', //                                           5
  '    install:', //                                                 6
  '      - python -m pip install -e .', //                           7
  '    test_roots: [tests]', //                                      8
];

/** HEAD with line `number` (1-based) replaced, or removed when `text` is null. */
function withLine(number: number, text: string | null): string[] {
  return HEAD.flatMap((line, index) => (index + 1 === number ? (text === null ? [] : [text]) : [line]));
}

describe('a valid manifest', () => {
  it('fills the optional fields with their defaults', () => {
    const [entry] = load(HEAD).repositories;
    expect(entry).toEqual({
      name: 'flask',
      url: 'https://github.com/pallets/flask.git',
      source: null,
      baseCommit: '2fec0b206c6e83ea813ab26597e15c96fab08be7',
      python: '3.11',
      packageRoot: '.',
      install: ['python -m pip install -e .'],
      testRoots: ['tests'],
      pytestArgs: [],
      deselect: [],
      env: {},
      timeoutSeconds: 600,
    });
  });

  it('reads every field, anchors included, and lowercases the commit', () => {
    const manifest = load([
      'repositories:',
      '  - name: a',
      '    url: git@github.com:owner/a.git',
      '    base_commit: 2FEC0B206C6E83EA813AB26597E15C96FAB08BE7',
      '    python: "3.12.4"',
      '    package_root: packages/python/a',
      '    install: &install ["python -m pip install -e ."]',
      '    test_roots: [a/tests, _a_utils/tests]',
      '    pytest_args: &args ["-p", "no:cacheprovider"]',
      '    deselect:',
      '      - id: a/tests/test_x.py::TestX::test_y[1-a b]',
      '        reason: needs network',
      '      - {id: "a/tests/test_doc.py::a.module.func", reason: flaky}',
      '    env: {MPLBACKEND: Agg, OMP_NUM_THREADS: "1"}',
      '    timeout: 900',
      '    baseline_runs: 1',
      '    validate_runs: 1',
      '    stand_in:',
      '      sdist: https://files.example.org/a-1.0.tar.gz',
      `      sha256: ${'ab'.repeat(32)}`,
      '      why: the clone is too large here',
      '  - name: b',
      '    source: ../clones/b',
      '    python: "3.10"',
      '    install: *install',
      '    test_roots: [tests]',
      '    pytest_args: *args',
    ]);
    const [a, b] = manifest.repositories;
    expect(a?.baseCommit).toBe('2fec0b206c6e83ea813ab26597e15c96fab08be7');
    expect(a?.packageRoot).toBe('packages/python/a');
    expect(a?.deselect).toEqual([
      { id: 'a/tests/test_x.py::TestX::test_y[1-a b]', reason: 'needs network' },
      { id: 'a/tests/test_doc.py::a.module.func', reason: 'flaky' },
    ]);
    expect(a?.env).toEqual({ MPLBACKEND: 'Agg', OMP_NUM_THREADS: '1' });
    expect(a?.timeoutSeconds).toBe(900);
    expect(a?.baselineRuns).toBe(1);
    expect(b?.baselineRuns).toBeUndefined();
    expect(a?.validateRuns).toBe(1);
    expect(b?.validateRuns).toBeUndefined();
    expect(a?.standIn).toEqual({
      sdist: 'https://files.example.org/a-1.0.tar.gz',
      sha256: 'ab'.repeat(32),
      why: 'the clone is too large here',
    });
    expect(b).toMatchObject({
      url: null,
      source: '../clones/b',
      baseCommit: null,
      install: a?.install,
      pytestArgs: ['-p', 'no:cacheprovider'],
    });
  });
});

describe('manifest errors name the file, the line and the field', () => {
  it('base_commit', () => {
    expect(problem(withLine(4, '    base_commit: abc'))).toBe(
      '4: repositories[0].base_commit must be a 40-character commit sha (got "abc")',
    );
    expect(problem(withLine(4, null))).toMatch(/^2: repositories\[0\]\.base_commit is required when url is given/);
    expect(problem(withLine(4, '    base_commit: 1234567'))).toMatch(
      /^4: repositories\[0\]\.base_commit must be a 40-character commit sha \(got the number 1234567; quote it/,
    );
  });

  it('url and source', () => {
    expect(problem([...HEAD, '    source: ../flask'])).toMatch(
      /^9: repositories\[0\] has both url and source; give exactly one/,
    );
    expect(problem(withLine(3, null))).toMatch(/^2: repositories\[0\] needs a url \(to clone\) or a source/);
    expect(problem(withLine(3, '    url: github.com/pallets/flask'))).toMatch(
      /^3: repositories\[0\]\.url must be a git URL/,
    );
    expect(problem(withLine(3, '    url:'))).toMatch(/^3: repositories\[0\]\.url must not be empty/);
  });

  it('name', () => {
    expect(problem(withLine(2, '  - name: -flask'))).toMatch(
      /^2: repositories\[0\]\.name must start with a letter or digit/,
    );
    expect(problem(withLine(2, '  - name: my repo'))).toMatch(
      /^2: repositories\[0\]\.name must start with a letter or digit .* \(got "my repo"\)/,
    );
    expect(problem(withLine(2, '  - url2: x'))).toMatch(
      /^2: repositories\[0\]\.url2 is not a known field \(did you mean "url"\?/,
    );
    const twice = [...HEAD, ...HEAD.slice(1)];
    expect(problem(twice)).toBe(
      '9: repositories[1].name "flask" is already used by repositories[0] (line 2); names must be unique',
    );
  });

  it('a required field that is missing points at its repository', () => {
    expect(problem(withLine(5, null))).toMatch(/^2: repositories\[0\]\.python is required \(the Python version/);
    expect(problem(withLine(8, null))).toMatch(/^2: repositories\[0\]\.test_roots is required/);
    expect(problem(HEAD.filter((_, index) => index !== 5 && index !== 6))).toMatch(
      /^2: repositories\[0\]\.install is required/,
    );
    expect(problem(withLine(2, '  - python2: x'))).toMatch(/^2: repositories\[0\]\.python2 is not a known field/);
  });

  it('python', () => {
    expect(problem(withLine(5, '    python: 3.10'))).toBe(
      '5: repositories[0].python must be a quoted version string like "3.11" (got 3.10, which YAML reads as the ' +
        'number ' +
        '3.1; write "3.10")',
    );
    expect(problem(withLine(5, '    python: 3.11'))).toBe(
      '5: repositories[0].python must be a quoted version string like "3.11" (got 3.11; write "3.11")',
    );
    expect(problem(withLine(5, '    python: "2.7"'))).toMatch(
      /^5: repositories\[0\]\.python must be a Python 3 version like "3\.11"/,
    );
    expect(problem(withLine(5, '    python: "python3.11"'))).toMatch(
      /^5: repositories\[0\]\.python must be a Python 3 version/,
    );
  });

  it('baseline_runs', () => {
    expect(problem([...HEAD, '    baseline_runs: 0'])).toBe(
      '9: repositories[0].baseline_runs must be a whole number of runs, at least 1, e.g. baseline_runs: 1 (got the ' +
        'number 0)',
    );
    expect(problem([...HEAD, '    baseline_runs: "1"'])).toMatch(
      /^9: repositories\[0\]\.baseline_runs must be a whole number of runs.*\(got "1"\)/,
    );
  });

  it('validate_runs and stand_in', () => {
    expect(problem([...HEAD, '    validate_runs: 0'])).toBe(
      '9: repositories[0].validate_runs must be a whole number of runs, at least 1, e.g. validate_runs: 1 (got the ' +
        'number 0)',
    );
    const standIn = (sdist: string, sha256: string) => [
      ...HEAD,
      '    stand_in:',
      `      sdist: ${sdist}`,
      `      sha256: ${sha256}`,
      '      why: too large',
    ];
    expect(problem(standIn('http://example.org/a.tar.gz', 'ab'.repeat(32)))).toBe(
      '10: repositories[0].stand_in.sdist must be an https URL of a .tar.gz (got "http://example.org/a.tar.gz")',
    );
    expect(problem(standIn('https://example.org/a.tar.gz', 'AB'))).toBe(
      '11: repositories[0].stand_in.sha256 must be 64 lowercase hex digits (got "AB")',
    );
    expect(problem([...HEAD, '    stand_in: https://example.org/a.tar.gz'])).toMatch(
      /^9: repositories\[0\]\.stand_in must be a mapping \{sdist: .*\(got "https:\/\/example\.org\/a\.tar\.gz"\)/,
    );
  });

  it('timeout', () => {
    expect(problem([...HEAD, '    timeout: 0'])).toBe(
      '9: repositories[0].timeout must be a whole number of seconds greater than 0, e.g. timeout: 600 (got the ' +
        'number ' +
        '0)',
    );
    expect(problem([...HEAD, '    timeout: 1.5'])).toMatch(
      /^9: repositories\[0\]\.timeout must be a whole number .*\(got the number 1\.5\)/,
    );
    expect(problem([...HEAD, '    timeout: -5'])).toMatch(/^9: repositories\[0\]\.timeout must be a whole number/);
    expect(problem([...HEAD, '    timeout: "600"'])).toMatch(
      /^9: repositories\[0\]\.timeout must be a whole number .*\(got "600"\)/,
    );
    expect(problem([...HEAD, '    timeout:'])).toMatch(
      /^9: repositories\[0\]\.timeout must be a whole number .*\(got nothing\)/,
    );
  });

  it('install and pytest_args', () => {
    expect(
      problem(withLine(6, '    install: python -m pip install -e .').filter((line) => !line.startsWith('      -'))),
    ).toMatch(/^6: repositories\[0\]\.install must be a list/);
    expect(problem([...HEAD.slice(0, 7), '      - 42', HEAD[7] ?? ''])).toMatch(
      new RegExp(
        String.raw`^8: repositories\[0\]\.install\[1\] must be a shell command or \{pip: \[arguments\]\} \(got the ` +
          String.raw`number 42; quote it`,
      ),
    );
    expect(problem([...HEAD.slice(0, 7), '      - pip: []', HEAD[7] ?? ''])).toMatch(
      /^8: repositories\[0\]\.install\[1\]\.pip names nothing to install/,
    );
    expect(problem([...HEAD.slice(0, 7), '      - pip: -e .', HEAD[7] ?? ''])).toMatch(
      /^8: repositories\[0\]\.install\[1\]\.pip must be a list/,
    );
    expect(problem([...HEAD.slice(0, 7), '      - {pipp: [x]}', HEAD[7] ?? ''])).toMatch(
      /^8: repositories\[0\]\.install\[1\]\.pipp is not a known field \(did you mean "pip"\?/,
    );
    expect(problem([...HEAD.slice(0, 7), '      - ""', HEAD[7] ?? ''])).toMatch(
      /^8: repositories\[0\]\.install\[1\] must not be empty/,
    );
    expect(problem([...HEAD, '    pytest_args: ["-x", {a: 1}]'])).toMatch(
      /^9: repositories\[0\]\.pytest_args\[1\] must be a string \(got a mapping\)/,
    );
  });

  it('exclude_newer is a date, a timestamp with its zone, or none', () => {
    expect(problem([...HEAD, '    exclude_newer: yesterday'])).toMatch(
      /^9: repositories\[0\]\.exclude_newer must be a date like "2024-09-01"/,
    );
    expect(problem([...HEAD, '    exclude_newer: 2024-09-01T10:00:00'])).toMatch(
      /^9: repositories\[0\]\.exclude_newer must be a date .*\(got "2024-09-01T10:00:00"\)/,
    );
    const parsed = (line: string): string | undefined =>
      parseManifest([...HEAD, line].join('\n'), 'm.yaml').repositories[0]?.excludeNewer;
    expect(parsed('    exclude_newer: 2024-09-01')).toBe('2024-09-01');
    expect(parsed('    exclude_newer: "2024-09-01T10:00:00+02:00"')).toBe('2024-09-01T10:00:00+02:00');
    expect(parsed('    exclude_newer: none')).toBe('none');
    expect(parseManifest(HEAD.join('\n'), 'm.yaml').repositories[0]?.excludeNewer).toBeUndefined();
  });

  it('import_check names top-level packages', () => {
    expect(problem([...HEAD, '    import_check: []'])).toMatch(/^9: repositories\[0\]\.import_check names no package/);
    expect(problem([...HEAD, '    import_check: [plotly.io]'])).toMatch(
      /^9: repositories\[0\]\.import_check\[0\] must be a top-level package name/,
    );
    const parsed = parseManifest([...HEAD, '    import_check: [plotly, _plotly_utils]'].join('\n'), 'm.yaml');
    expect(parsed.repositories[0]?.importCheck).toEqual(['plotly', '_plotly_utils']);
  });

  it('blobs_from pins distributions', () => {
    expect(problem([...HEAD, '    blobs_from: []'])).toMatch(/^9: repositories\[0\]\.blobs_from lists no distribution/);
    expect(problem([...HEAD, '    blobs_from: [plotly]'])).toMatch(
      /^9: repositories\[0\]\.blobs_from\[0\] must pin one release, NAME==VERSION/,
    );
    const parsed = parseManifest(
      [...HEAD, '    blobs_from: ["plotly==5.24.1", plotly-geo==1.0.0]'].join('\n'),
      'm.yaml',
    );
    expect(parsed.repositories[0]?.blobsFrom).toEqual(['plotly==5.24.1', 'plotly-geo==1.0.0']);
  });

  it('build_in_place is a shell command', () => {
    expect(problem([...HEAD, '    build_in_place:'])).toMatch(
      /^9: repositories\[0\]\.build_in_place must not be empty \(give the shell command/,
    );
    expect(problem([...HEAD, '    build_in_place: [make]'])).toMatch(
      /^9: repositories\[0\]\.build_in_place must be the shell command .*\(got a list/,
    );
    const parsed = parseManifest(
      [...HEAD, '    build_in_place: python setup.py build_ext --inplace'].join('\n'),
      'm.yaml',
    );
    expect(parsed.repositories[0]?.buildInPlace).toBe('python setup.py build_ext --inplace');
    expect(parseManifest(HEAD.join('\n'), 'm.yaml').repositories[0]?.buildInPlace).toBeUndefined();
  });

  it('package_root and test_roots stay inside the repository', () => {
    expect(problem([...HEAD, '    package_root: ../elsewhere'])).toMatch(
      /^9: repositories\[0\]\.package_root must be a path relative to the repository root/,
    );
    expect(problem([...HEAD, '    package_root: /abs'])).toMatch(
      /^9: repositories\[0\]\.package_root must be a path relative/,
    );
    expect(problem([...HEAD, '    package_root:'])).toMatch(
      new RegExp(
        String.raw`^9: repositories\[0\]\.package_root must not be empty \(give a string, or remove the field where` +
          String.raw` it is optional\)`,
      ),
    );
    expect(problem(withLine(8, '    test_roots: []'))).toMatch(
      /^8: repositories\[0\]\.test_roots must name at least one folder/,
    );
    expect(problem(withLine(8, '    test_roots: [tests, ../x]'))).toMatch(
      /^8: repositories\[0\]\.test_roots\[1\] must be a path relative to the package root/,
    );
    expect(problem(withLine(8, '    test_roots: [tests, tests]'))).toMatch(
      /^8: repositories\[0\]\.test_roots\[1\] repeats "tests"/,
    );
    expect(problem(withLine(8, '    test_roots: tests'))).toMatch(/^8: repositories\[0\]\.test_roots must be a list/);
  });

  it('deselect', () => {
    const deselect = (...lines: string[]): string[] => [...HEAD, '    deselect:', ...lines];
    expect(problem(deselect('      - id: test_z', '        reason: flaky'))).toBe(
      '10: repositories[0].deselect[0].id must be a pytest node id like tests/test_x.py::TestY::test_z[param] (got ' +
        '"test_z")',
    );
    expect(problem(deselect('      - id: tests/test_x.py::test_y'))).toMatch(
      /^10: repositories\[0\]\.deselect\[0\]\.reason is required/,
    );
    expect(problem(deselect('      - id: tests/test_x.py::test_y', '        reason: flaky', '        why: x'))).toMatch(
      /^12: repositories\[0\]\.deselect\[0\]\.why is not a known field \(known fields: id, reason\)/,
    );
    expect(problem(deselect('      - tests/test_x.py::test_y'))).toMatch(
      /^10: repositories\[0\]\.deselect\[0\] must be a mapping \{id: <pytest node id>, reason: <why>\}/,
    );
    expect(
      problem(
        deselect(
          '      - {id: tests/test_x.py::test_y, reason: a}',
          '      - {id: tests/test_x.py::test_y, reason: b}',
        ),
      ),
    ).toMatch(/^11: repositories\[0\]\.deselect\[1\]\.id deselects "tests\/test_x\.py::test_y" a second time/);
    expect(problem(deselect('      - {id: ../tests/test_x.py::test_y, reason: a}'))).toMatch(
      /^10: repositories\[0\]\.deselect\[0\]\.id must be a pytest node id/,
    );
    expect(problem(deselect('      - {id: /abs/test_x.py, reason: a}'))).toMatch(
      /^10: repositories\[0\]\.deselect\[0\]\.id must be a pytest node id/,
    );
  });

  it('absent_files', () => {
    const absent = (...lines: string[]): string[] => [...HEAD, '    absent_files:', ...lines];
    expect(problem(absent('      - {path: ../x.js, why: built}'))).toMatch(
      /^10: repositories\[0\]\.absent_files\[0\]\.path must be a path inside the repository like js\/lib\/x\.js/,
    );
    expect(problem(absent('      - {path: js/x.js}'))).toMatch(
      /^10: repositories\[0\]\.absent_files\[0\]\.why is required/,
    );
    expect(problem(absent('      - {path: js/x.js, why: a}', '      - {path: js/x.js, why: b}'))).toMatch(
      /^11: repositories\[0\]\.absent_files\[1\]\.path names "js\/x\.js" a second time/,
    );
    expect(problem(absent('      - js/x.js'))).toMatch(/^10: repositories\[0\]\.absent_files\[0\] must be a mapping/);
  });

  it('env', () => {
    expect(problem([...HEAD, '    env:', '      OMP_NUM_THREADS: 1'])).toMatch(
      new RegExp(
        String.raw`^10: repositories\[0\]\.env\.OMP_NUM_THREADS must be a string \(quote numbers, e\.g\. "1"\) \(go` +
          String.raw`t the number 1; quote it`,
      ),
    );
    expect(problem([...HEAD, '    env:', '      PYTHONHASHSEED: "1"'])).toMatch(
      /^10: repositories\[0\]\.env\.PYTHONHASHSEED is set by the runner/,
    );
    expect(problem([...HEAD, '    env:', '      1BAD: x'])).toMatch(
      /^10: repositories\[0\]\.env has "1BAD" as a variable name; names are letters, digits and "_"/,
    );
    expect(problem([...HEAD, '    env: [MPLBACKEND=Agg]'])).toMatch(
      /^9: repositories\[0\]\.env must be a mapping of variable names to values/,
    );
  });

  it('the top level', () => {
    expect(problem(['repos:', '  - name: flask'])).toMatch(
      /^1: repos is not a known field \(did you mean "repositories"\? known fields: levels, repositories\)/,
    );
    expect(problem(['- name: flask'])).toMatch(
      /^1: the manifest must be a mapping with a "repositories:" list \(got a list\)/,
    );
    expect(problem(['repositories: []'])).toBe('1: repositories lists no repository (add at least one)');
    expect(problem(['repositories: flask'])).toMatch(/^1: repositories must be a list of repositories/);
    expect(problem(['repositories:', '  - flask'])).toMatch(/^2: repositories\[0\] must be a mapping of fields/);
    expect(problem(['# nothing but a comment'])).toBe(
      '1: the manifest is empty (expected a "repositories:" list of repositories)',
    );
    expect(problem(['other: 1'])).toMatch(/^1: other is not a known field/);
  });

  it("levels: the project's context-level mode, given to every repository", () => {
    const manifest = load(['levels: repocod-v1', ...HEAD, '  - name: sympy', ...HEAD.slice(2).map((line) => line)]);
    expect(manifest.repositories.map((entry) => entry.levels)).toEqual(['repocod-v1', 'repocod-v1']);
    expect(load(HEAD).repositories[0]?.levels).toBeUndefined();
    expect(problem(['levels: v1', ...HEAD])).toBe('1: levels must be one of repocod-v1, repocod-v4, deps (got "v1")');
  });

  it('names the right repository further down the file', () => {
    const second = [
      ...HEAD,
      '  - name: sympy',
      '    url: https://github.com/sympy/sympy.git',
      '    base_commit: c870d17',
      '    python: "3.11"',
    ];
    expect(problem(second)).toBe('11: repositories[1].base_commit must be a 40-character commit sha (got "c870d17")');
  });
});
