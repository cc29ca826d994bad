import type { CheckResult } from '@repocod/pipeline';
import { describe, expect, it } from 'vitest';
import { checkLines } from './check-lines.js';
import { lineText } from './styled-line.js';

const CHECKS: readonly CheckResult[] = [
  { check: 'collects', status: 'passed', tests: [], detail: 'the pre state collects', log: null, runIds: ['a:1'] },
  {
    check: 'fails-without-body',
    status: 'failed',
    tests: ['tests/test_models.py::test_records_with_different_fields_differ (passed)'],
    detail: '1 of 13 FAIL_TO_PASS test(s) do not fail without the body',
    log: '…FAILED',
    runIds: ['b:1'],
  },
  {
    check: 'passes-with-gold',
    status: 'infra-error',
    tests: [],
    detail: 'the run timed out',
    log: 'timeout',
    runIds: ['c:1'],
  },
];

describe('checkLines', () => {
  it('lists each check with its status, detail and tests', () => {
    const lines = checkLines(CHECKS, { flakyTests: [], droppedTests: [] });
    expect(lines.map(lineText)).toEqual([
      '✓ collects           passed      the pre state collects',
      '✗ fails-without-body failed      1 of 13 FAIL_TO_PASS test(s) do not fail without the body',
      '    tests/test_models.py::test_records_with_different_fields_differ (passed)',
      '! passes-with-gold   infra-error the run timed out',
    ]);
    expect(lines[1]?.[2]?.color).toBe('red');
    expect(lines[3]?.[2]?.color).toBe('yellow');
    expect(lines[0]?.[2]?.color).toBe('green');
  });

  it('adds the flaky and dropped tests when there are some', () => {
    const lines = checkLines([], {
      flakyTests: ['tests/test_a.py::test_flaky'],
      droppedTests: ['tests/test_b.py::test_none'],
    }).map(lineText);
    expect(lines).toEqual([
      'flaky tests, left out of FAIL_TO_PASS (1)',
      '    tests/test_a.py::test_flaky',
      'tests that pass without the body, left out of FAIL_TO_PASS (1)',
      '    tests/test_b.py::test_none',
    ]);
  });
});
