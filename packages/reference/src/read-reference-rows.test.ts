import { describe, expect, it } from 'vitest';
import { readReferenceRows } from './read-reference-rows.js';
import { recordsOfJson, recordsOfJsonLines } from './reference-records.js';

describe('recordsOfJson and readReferenceRows', () => {
  it('reads the names form keyed repository → repo_id → function_name, as flaky_tests.json has it', () => {
    const flaky = { sphinx: { '1': '__init__.ObjectDescription.run', '6': '_make_id' }, sympy: { '94': 'sympify' } };
    const read = readReferenceRows(recordsOfJson(flaky, 'flaky_tests.json'));
    expect(read.form).toBe('names');
    expect(read.problems).toEqual([]);
    expect(read.rows.map((row) => [row.index, row.repository, row.repoId, row.functionName, row.where])).toEqual([
      [1, 'sphinx', '1', '__init__.ObjectDescription.run', 'flaky_tests.json: $["sphinx"]["1"]'],
      [2, 'sphinx', '6', '_make_id', 'flaky_tests.json: $["sphinx"]["6"]'],
      [3, 'sympy', '94', 'sympify', 'flaky_tests.json: $["sympy"]["94"]'],
    ]);
  });

  it('reads lists of names per repository', () => {
    const read = readReferenceRows(recordsOfJson({ flask: ['Flask.run', 'url_for'] }, 'names.json'));
    expect(read.rows.map((row) => [row.repository, row.repoId, row.functionName])).toEqual([
      ['flask', null, 'Flask.run'],
      ['flask', null, 'url_for'],
    ]);
  });

  it('reads REPOCOD rows: a repo_id given as a number, a prompt as a list of lines, the test path as a string', () => {
    const row = {
      repository: 'seaborn',
      repo_id: 28,
      target_module_path: 'seaborn/axisgrid.py',
      prompt: ['    def __init__(self):\n', '        """Doc."""\n'],
      full_function: 'def __init__(self):\n        """Doc."""\n        pass\n',
      function_name: 'axisgrid.PairGrid.__init__',
      relevant_test_path: 'tests/test_axisgrid.py',
    };
    const read = readReferenceRows(recordsOfJsonLines(`${JSON.stringify(row)}\n`, 'repocod.jsonl'));
    expect(read.form).toBe('repocod');
    expect(read.rows[0]).toMatchObject({
      where: 'repocod.jsonl:1',
      repository: 'seaborn',
      repoId: '28',
      file: 'seaborn/axisgrid.py',
      prompt: '    def __init__(self):\n        """Doc."""\n',
      functionName: 'axisgrid.PairGrid.__init__',
      relevantTests: ['tests/test_axisgrid.py'],
    });
  });

  it('reads seed rows and names each bad row with where it is and the field', () => {
    const good = {
      instance_id: 'demo__demo-x',
      repo: 'acme/demo',
      base_commit: 'abc1234',
      pre_patches: { code: '--- a/x.py\n', test: '' },
      gold_patches: { code: '', test: '' },
      evaluation: { FAIL_TO_PASS: ['tests/test_x.py::test_a'] },
    };
    const lines = [
      JSON.stringify(good),
      '{not json',
      JSON.stringify({ ...good, pre_patches: { code: 3 } }),
      JSON.stringify({ ...good, evaluation: { FAIL_TO_PASS: [1] } }),
      JSON.stringify({ repository: 'flask', function_name: 'url_for' }),
      JSON.stringify({ hello: 1 }),
    ].join('\n');
    const read = readReferenceRows(recordsOfJsonLines(lines, 'lite.jsonl'));
    expect(read.form).toBe('seed');
    expect(read.rows.map((row) => [row.index, row.repository, row.failToPass])).toEqual([
      [1, 'acme/demo', ['tests/test_x.py::test_a']],
    ]);
    expect(read.problems).toEqual([
      { index: 2, where: 'lite.jsonl:2', field: null, message: expect.stringContaining('not a JSON value') },
      { index: 3, where: 'lite.jsonl:3', field: 'pre_patches.code', message: 'is not a string (got number)' },
      {
        index: 4,
        where: 'lite.jsonl:4',
        field: 'evaluation.FAIL_TO_PASS',
        message: 'is not a list of strings (got a list)',
      },
      {
        index: 5,
        where: 'lite.jsonl:5',
        field: null,
        message: expect.stringContaining('is a repocod row in a reference of seed rows'),
      },
      { index: 6, where: 'lite.jsonl:6', field: null, message: expect.stringContaining('is of no known form') },
    ]);
  });

  it('names a REPOCOD row without a repository, and a document of no known shape', () => {
    const read = readReferenceRows(recordsOfJson([{ function_name: 'f' }], 'rows.json'));
    expect(read.problems).toEqual([
      { index: 1, where: 'rows.json: row 1', field: 'repository', message: expect.stringContaining('is missing') },
    ]);
    expect(readReferenceRows(recordsOfJson('text', 'x.json')).problems[0]?.message).toContain('neither a list of rows');
    expect(readReferenceRows(recordsOfJson({ sphinx: 3 }, 'x.json')).problems).toEqual([
      { index: 1, where: 'x.json: $["sphinx"]', field: null, message: expect.stringContaining('keyed by repo_id') },
    ]);
  });
});
