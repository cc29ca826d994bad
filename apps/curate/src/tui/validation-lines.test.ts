import { type ValidationEntry, type ValidationOverview, validationOverview } from '@repocod/pipeline';
import { beforeAll, describe, expect, it } from 'vitest';
import { openDemoCatalog } from '../testing/demo-fixture.js';
import { lineText } from './styled-line.js';
import {
  decidingCheck,
  entryLine,
  failureLines,
  idColumnWidth,
  logCheck,
  shortRunId,
  statusColumnWidth,
  summaryLines,
} from './validation-lines.js';

let overview: ValidationOverview = { selectionId: null, entries: [] };

beforeAll(async () => {
  const catalog = await openDemoCatalog();
  try {
    overview = await validationOverview(catalog);
  } finally {
    await catalog.close();
  }
});

/** The demo's one task that fails validation: its tests pass when its body is removed. */
const EMPTY_BODY_SOLVES = 'demo-inventory.util.ensure_non_negative';

function entry(id: string): ValidationEntry {
  const found = overview.entries.find((candidate) => candidate.instanceId === id);
  if (found === undefined) throw new Error(`the demo selection has no ${id}`);
  return found;
}

describe('summaryLines', () => {
  it("counts the demo selection's verdicts", () => {
    const [first, second] = summaryLines(overview).map(lineText);
    expect(first).toMatch(/^selection [0-9a-f]{16} · 52 tasks$/u);
    expect(second).toBe('51 passed · 1 failed · 0 infra-error · 0 not validated · 0 flaky test(s)');
  });

  it('says when nothing was selected', () => {
    expect(lineText(summaryLines({ selectionId: null, entries: [] })[0] ?? [])).toMatch(/^no selection yet/u);
  });
});

describe('entryLine', () => {
  it("shows a failed task's deciding check and a passed task's gold runs", () => {
    const columns = { status: statusColumnWidth(overview.entries), id: idColumnWidth(overview.entries, 160) };
    expect(columns).toEqual({ status: 6, id: 43 });
    // The empty body solves it: every one of its tests passes without the body.
    expect(lineText(entryLine(entry(EMPTY_BODY_SOLVES), columns, true))).toBe(
      '› ✗ failed demo-inventory.util.ensure_non_negative     fails-without-body: no FAIL_TO_PASS test ' +
        'fails without the body (4 pass)',
    );
    const passed = lineText(entryLine(entry('demo-inventory.pricing.quote'), columns, false));
    expect(passed).toMatch(
      new RegExp(
        String.raw`^  ✓ passed demo-inventory\.pricing\.quote {16}all 10 test\(s\) pass in each of 3 baseline ` +
          String.raw`run\(s\) of mining at the base commit; fits the 120 s limit: \d+\.\d s ` +
          String.raw`\(one run of the gold state\)$`,
      ),
    );
  });
});

describe('failureLines', () => {
  it("lists the checks, then the end of the deciding check's log", () => {
    const failed = entry(EMPTY_BODY_SOLVES);
    expect(decidingCheck(failed)?.check).toBe('fails-without-body');
    const page = failureLines(failed, { kind: 'tail' });
    const lines = page.lines.map(lineText);
    expect(lines).toContain('    tests/test_util.py::test_ensure_non_negative_names_what_it_counts (passed)');
    expect(lines[page.logStart]).toMatch(
      /^── end of the log of fails-without-body · f: whole log · run [0-9a-f]{12}:1 $/u,
    );
    expect(lines.slice(page.logStart + 1).join('\n')).toMatch(/=+ 4 passed, \d+ deselected in /u);
  });

  it('shows a whole log, a missing run and a failed load', () => {
    const failed = entry(EMPTY_BODY_SOLVES);
    const runId = logCheck(failed)?.runIds[0] ?? '';
    const whole = failureLines(failed, { kind: 'whole', runId, text: 'line one\nline two\n' });
    expect(whole.lines.slice(whole.logStart).map(lineText)).toEqual([
      `── whole log of fails-without-body · 2 lines · run ${shortRunId(runId)} `,
      'line one',
      'line two',
    ]);
    expect(failureLines(failed, { kind: 'missing', runId }).lines.map(lineText)).toContain(
      `the catalog has no run ${runId}`,
    );
    expect(
      failureLines(failed, { kind: 'error', runId, message: 'the catalog is locked' }).lines.map(lineText),
    ).toContain('could not load the log: the catalog is locked');
    expect(failureLines(failed, { kind: 'loading', runId }).lines.map(lineText)).toContain('loading the whole log…');
  });

  it("offers a passed task's last run: the gold state's one run that decided its fit", () => {
    const passed = entry('demo-inventory.pricing.quote');
    expect(decidingCheck(passed)).toBeNull();
    expect(passed.checks.find((check) => check.check === 'passes-with-gold')?.runIds).toHaveLength(1);
    expect(logCheck(passed)?.check).toBe('passes-with-gold');
    const page = failureLines(passed, { kind: 'tail' });
    expect(page.lines.slice(page.logStart).map(lineText)).toEqual([
      expect.stringMatching(/^── log of passes-with-gold · f: whole log · run [0-9a-f]{12}:1 $/u),
      'the check passed: only the log of a check that did not pass is kept with it',
    ]);
  });
});

describe('shortRunId', () => {
  it("keeps a hash's start and the run number", () => {
    expect(shortRunId('86749a405fb4c911cf83c6f1f7226eb5bfcca879d3e5b3bee1137fdb37d38714:1')).toBe('86749a405fb4:1');
    expect(shortRunId('abc')).toBe('abc');
  });
});
