import { isRepocodError } from '@repocod/core';
import { describe, expect, it } from 'vitest';
import { parseManifest } from './manifest.js';

const FILE = 'variants.yaml';

/** An entry whose variants start at line 10; the cases below add their lines after it. */
const HEAD = [
  'repositories:', //                                              1
  '  - name: sphinx', //                                           2
  '    url: https://github.com/sphinx-doc/sphinx.git', //          3
  '    base_commit: 0a162fa8da21154011a2c890bb82fd0ce96ebf16', //  4
  '    python: "3.11"', //                                         5
  '    install:', //                                               6
  '      - pip: [--editable, ".[test]"]', //                       7
  '    test_roots: [tests]', //                                    8
  '    variants:', //                                              9
];

/** The message of the config-invalid error these variant lines give, the file name left out. */
function problem(variantLines: readonly string[]): string {
  try {
    parseManifest(`${[...HEAD, ...variantLines].join('\n')}\n`, FILE);
  } catch (error) {
    if (!isRepocodError(error)) throw error;
    expect(error.code).toBe('config-invalid');
    expect(error.message.startsWith(`${FILE}:`)).toBe(true);
    return error.message.slice(FILE.length + 1);
  }
  throw new Error(`expected ${variantLines.join('\n')} to be refused`);
}

const GROUP = [
  '      - from: 2025-08-02', //                                   10
  '        why: the test extra became the dependency group test', // 11
  '        install: [{pip: [--editable, ., "pytest>=8.0", "cython>=3.0"]}]', // 12
];
const PY312 = [
  '      - from: 2025-12-05T22:12:06Z', //                         13
  '        why: requires-python rose to 3.12', //                  14
  '        python: "3.12"', //                                     15
];

describe('variants in a manifest', () => {
  it('reads each variant with its start, its reason, the fields it sets and where it is written', () => {
    const [entry] = parseManifest(`${[...HEAD, ...GROUP, ...PY312].join('\n')}\n`, FILE).repositories;
    expect(entry?.variants).toEqual([
      {
        from: { kind: 'moment', text: '2025-08-02', at: '2025-08-02T00:00:00Z' },
        why: 'the test extra became the dependency group test',
        fields: { install: [{ pip: ['--editable', '.', 'pytest>=8.0', 'cython>=3.0'] }] },
        where: `${FILE}:10`,
      },
      {
        from: { kind: 'moment', text: '2025-12-05T22:12:06Z', at: '2025-12-05T22:12:06Z' },
        why: 'requires-python rose to 3.12',
        fields: { python: '3.12' },
        where: `${FILE}:13`,
      },
    ]);
  });

  it('reads a start commit in lower case', () => {
    const lines = [
      '      - from: AD0497B89D14845D10B69849074076BE7B40C1ED',
      '        why: Python 3.12',
      '        python: "3.12"',
    ];
    const [entry] = parseManifest(`${[...HEAD, ...lines].join('\n')}\n`, FILE).repositories;
    expect(entry?.variants?.[0]?.from).toEqual({
      kind: 'commit',
      text: 'AD0497B89D14845D10B69849074076BE7B40C1ED',
      commit: 'ad0497b89d14845d10b69849074076be7b40c1ed',
    });
  });

  it('refuses variants out of order, or two starting at the same moment or commit', () => {
    expect(problem([...PY312, ...GROUP])).toBe(
      '13: repositories[0].variants[1].from 2025-08-02 is before variants[0] (line 10) from 2025-12-05T22:12:06Z; ' +
        'list variants oldest first, each starting later',
    );
    const sameDay = ['      - from: "2025-08-02T00:00:00+00:00"', '        why: again', '        python: "3.12"'];
    expect(problem([...GROUP, ...sameDay])).toBe(
      '13: repositories[0].variants[1].from 2025-08-02T00:00:00+00:00 starts at the same moment as variants[0] ' +
        '(line 10) from 2025-08-02; list variants oldest first, each starting later',
    );
    const commit = (why: string): string[] => [
      `      - from: ${'c'.repeat(40)}`,
      `        why: ${why}`,
      '        timeout: 9',
    ];
    expect(problem([...commit('one'), ...commit('two')])).toBe(
      `13: repositories[0].variants[1].from starts at ${'c'.repeat(40)} as variants[0] (line 10) does; give each ` +
        `variant its own start`,
    );
  });

  it('refuses a field a variant may not set, and an unknown one with a suggestion', () => {
    expect(problem([...GROUP, '        base_commit: e44a40eb2f810558ccd9da1425421270ccb81351'])).toBe(
      '13: repositories[0].variants[0].base_commit cannot be set by a variant (a variant sets python, package_root, ' +
        'install, test_roots, pytest_args, deselect, env, timeout, baseline_runs, baseline_reruns, validate_runs; ' +
        'where the ' +
        "code comes from, how its functions are chosen and the names it is known by stay the entry's)",
    );
    expect(problem([...GROUP, '        pytest_arg: [-x]'])).toMatch(
      /^13: repositories\[0\]\.variants\[0\]\.pytest_arg is not a known field \(did you mean "pytest_args"\?/,
    );
  });

  it('asks for the reason, the start, and at least one field', () => {
    expect(problem(['      - from: 2025-08-02', '        python: "3.12"'])).toBe(
      '10: repositories[0].variants[0].why is required (why the recipe changed there, e.g. why: the test extra ' +
        'became a group)',
    );
    expect(problem(['      - why: newer', '        python: "3.12"'])).toBe(
      '10: repositories[0].variants[0].from is required (where it starts: a day "2025-05-12", a timestamp with its ' +
        'zone "2025-05-12T00:58:53Z", or a commit sha)',
    );
    expect(problem(['      - from: 2025-08-02', '        why: nothing'])).toBe(
      '10: repositories[0].variants[0] changes nothing; set at least one of python, package_root, install, ' +
        'test_roots, pytest_args, deselect, env, timeout, baseline_runs, baseline_reruns, validate_runs',
    );
    expect(problem(['      - from: last summer', '        why: x', '        python: "3.12"'])).toBe(
      '10: repositories[0].variants[0].from must be a day like "2025-05-12", a timestamp with its zone like ' +
        '"2025-05-12T00:58:53Z", or a 40-character commit sha (got "last summer")',
    );
  });

  it("checks a variant's fields as the entry's own are checked", () => {
    expect(problem(['      - from: 2025-08-02', '        why: x', '        python: 3.12'])).toBe(
      '12: repositories[0].variants[0].python must be a quoted version string like "3.11" (got 3.12; write "3.12")',
    );
    expect(problem(['      - from: 2025-08-02', '        why: x', '        env: {PATH: /bin}'])).toMatch(
      /^12: repositories\[0\]\.variants\[0\]\.env\.PATH is set by the runner/,
    );
    expect(problem(['      []'])).toBe('10: repositories[0].variants lists no variant; remove it or add one');
    expect(problem(['      - 2025-08-02'])).toMatch(/^10: repositories\[0\]\.variants\[0\] must be a mapping \{from:/);
  });
});
