import type { CheckResult } from '@repocod/pipeline';
import { STATUS_COLOURS, STATUS_MARKS } from './status-colours.js';
import { line, type StyledLine } from './styled-line.js';
import { fit, plain } from './truncate.js';

/**
 * A validation's checks as lines: each check with its status and its one-line detail, then the tests
 * it is about (the ones that did not do what the check expects), then the tests that validation
 * took out of FAIL_TO_PASS. Shared by the task screen and the validation screen.
 */

export interface CheckExtras {
  readonly flakyTests: readonly string[];
  readonly droppedTests: readonly string[];
}

const CHECK_WIDTH = Math.max(...['collects', 'fails-without-body', 'passes-with-gold'].map((name) => name.length));
const STATUS_WIDTH = 'infra-error'.length;

export function checkLines(checks: readonly CheckResult[], extras: CheckExtras): StyledLine[] {
  const lines: StyledLine[] = [];
  for (const check of checks) {
    const colour = STATUS_COLOURS[check.status];
    lines.push([
      { text: `${STATUS_MARKS[check.status]} `, color: colour },
      { text: `${fit(check.check, CHECK_WIDTH)} `, bold: true },
      { text: `${fit(check.status, STATUS_WIDTH)} `, color: colour },
      { text: plain(check.detail) },
    ]);
    for (const test of check.tests)
      lines.push(line(`    ${plain(test)}`, check.status === 'passed' ? {} : { color: colour }));
  }
  lines.push(...testList(`flaky tests, left out of FAIL_TO_PASS (${extras.flakyTests.length})`, extras.flakyTests));
  lines.push(
    ...testList(
      `tests that pass without the body, left out of FAIL_TO_PASS (${extras.droppedTests.length})`,
      extras.droppedTests,
    ),
  );
  return lines;
}

function testList(title: string, tests: readonly string[]): StyledLine[] {
  if (tests.length === 0) return [];
  return [line(title, { color: 'yellow' }), ...tests.map((test) => line(`    ${plain(test)}`))];
}
