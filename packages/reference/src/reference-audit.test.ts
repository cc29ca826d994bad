import { describe, expect, it } from 'vitest';
import { type AuditInput, auditHtml, auditMarkdown, auditReference, missingTestReason } from './reference-audit.js';
import { blankReferenceRow } from './read-reference-rows.js';
import type { ReferenceRow } from './reference-row.js';
import type { RowResolution } from './resolve-reference-row.js';

function row(index: number, failToPass: string[] | null): ReferenceRow {
  const form = failToPass === null ? 'names' : 'seed';
  return {
    ...blankReferenceRow(index, `lite.jsonl:${index}`, form, 'acme/demo'),
    functionName: `f${index}`,
    failToPass,
  };
}

const resolved = (qualname: string): RowResolution => ({
  status: 'resolved',
  function: { file: 'pkg/m.py', qualname },
  by: 'pre-patch',
  text: 'exact',
  textField: 'pre_patches.code',
  outsideCandidates: false,
  nameMatches: 1,
  notes: [],
});

const task = (instanceId: string, failToPass: string[]) => ({
  instanceId,
  failToPass,
  levels: { 'repocod-v1': 'file-level' },
  promptTokens: 10,
  solutionTokens: 20,
  complexity: 3,
  checksPassed: true,
  goldCode: `gold of ${instanceId}`,
  preTest: `removals of ${instanceId}`,
});

describe('missingTestReason', () => {
  it('tells why a test of theirs is not ours from our baseline', () => {
    expect(missingTestReason(undefined)).toBe('not-collected');
    expect(missingTestReason({ status: 'flaky', networkBound: false })).toBe('flaky');
    expect(missingTestReason({ status: 'not-passing', networkBound: true })).toBe('network-bound');
    expect(missingTestReason({ status: 'not-passing', networkBound: false })).toBe('fails-at-baseline');
    expect(missingTestReason({ status: 'passing', networkBound: false })).toBe('not-failed-by-mutation');
  });

  it('counts the lacking tests by reason in the entry and the Markdown', () => {
    const audit = auditReference('lite', [
      {
        row: row(1, ['t::a', 't::b', 't::gone']),
        repository: 'demo',
        resolution: resolved('f1'),
        task: task('d-f1', ['t::a']),
        verdict: { status: 'passed', reason: null },
        listedFlaky: null,
        lackingReasons: { 't::b': 'network-bound', 't::gone': 'not-collected' },
      },
    ]);
    expect(audit.entries[0]?.failToPass?.lackingWhy).toEqual({ 'network-bound': 1, 'not-collected': 1 });
    expect(auditMarkdown(audit)).toContain('1 / 3 (ours adds 0, lacks 2: network-bound 1, not-collected 1)');
  });
});

describe('auditReference', () => {
  it('compares FAIL_TO_PASS, counts verdicts and the flaky list, and says it in one headline', () => {
    const inputs: AuditInput[] = [
      {
        row: row(1, ['t::a', 't::b']),
        repository: 'demo',
        resolution: resolved('f1'),
        task: task('d-f1', ['t::b', 't::a']),
        verdict: { status: 'passed', reason: null },
        listedFlaky: false,
      },
      {
        row: row(2, ['t::a']),
        repository: 'demo',
        resolution: resolved('f2'),
        task: task('d-f2', ['t::a', 't::c']),
        verdict: { status: 'failed', reason: 'fails-without-body (no test fails)' },
        listedFlaky: true,
        gold: { outcome: 'timeout', detail: 'ran past 600 s', seconds: 600 },
      },
      {
        row: row(3, ['t::a']),
        repository: 'demo',
        resolution: resolved('f3'),
        task: null,
        verdict: null,
        listedFlaky: true,
      },
      {
        row: row(4, null),
        repository: null,
        resolution: {
          status: 'unresolved',
          reason: 'unknown-repository',
          message: 'x',
          matches: [],
          difference: null,
          notes: [],
        },
        task: null,
        verdict: null,
        listedFlaky: false,
      },
    ];
    const audit = auditReference('lite', inputs);
    expect(audit.headline).toBe(
      'lite rebuilt from source: 3 of 4 resolved (unknown-repository 1), 2 with a task, ' +
        '1 with identical FAIL_TO_PASS, 1 differ, 1 valid here, 1 not valid here (fails-without-body 1), ' +
        '0 of 1 evaluated resolved by their gold patch within the limit',
    );
    expect(audit.entries[1]?.failToPass).toEqual({
      ours: 2,
      theirs: 1,
      same: false,
      added: ['t::c'],
      lacking: [],
      lackingWhy: {},
    });
    expect(audit.entries[2]?.noTask).toContain('no relevant tests');
    expect(audit.summary).toMatchObject({ listedFlaky: 2, listedFlakyValid: 0, listedFlakyNotValid: 1 });
    const markdown = auditMarkdown(audit);
    expect(markdown).toContain("REPOCOD's flaky list names 2 of them: 0 valid here, 1 not valid here.");
    expect(markdown).toContain(
      '| 2 | demo | `f2` | pkg/m.py::f2 | yes | 2 / 1 (ours adds 1, lacks 0) | exact | – | 10 / 20 / 3 | ' +
        'repocod-v1 file-level | failed: fails-without-body (no test fails) | ' +
        'timeout: ran past 600 s (600 s) | listed |',
    );
    expect(markdown).toContain('| 4 | acme/demo | `f4` | unknown-repository |');
    const html = auditHtml({ ...audit, reference: 'lite <1.0>' });
    expect(html).toContain('<title>Audit of lite &#60;1.0&#62;</title>');
    expect(html).toContain(`<p><strong>${audit.headline}.</strong></p>`);
    expect(html.match(/<tr[ >]/g)).toHaveLength(5);
    expect(html).toContain('<td>timeout: ran past 600 s (600 s)</td>');
    expect(html).not.toContain('<script');
  });
});

describe('a verdict that judged nothing', () => {
  it('is not judged, neither valid nor not, and the headline says so', () => {
    const audit = auditReference('lite', [
      {
        row: row(1, null),
        repository: 'demo',
        resolution: resolved('f1'),
        task: task('d-f1', ['t::a']),
        verdict: { status: 'infra-error', reason: 'passes-with-gold (the run ended with timeout)' },
        listedFlaky: null,
      },
    ]);
    expect(audit.entries[0]?.verdict).toBe('not judged: passes-with-gold (the run ended with timeout)');
    expect(audit.summary).toMatchObject({ valid: 0, notValid: 0, notJudged: 1 });
    expect(audit.headline).toContain('0 not valid here, 1 not judged (an infrastructure error: timeout or crash)');
  });
});

describe('patches and measures against the reference', () => {
  it('compares the gold patch and the test removals byte for byte, and #NL / #GT / cyclo measured on its text', () => {
    const audit = auditReference('lite', [
      {
        row: { ...row(1, ['t::a']), goldCode: 'gold of d-f1', preTest: 'removals of d-f1' },
        repository: 'demo',
        resolution: resolved('f1'),
        task: task('d-f1', ['t::a']),
        verdict: { status: 'passed', reason: null },
        listedFlaky: null,
        theirs: { promptTokens: 10, solutionTokens: 20, complexity: 3 },
      },
      {
        row: { ...row(2, ['t::a']), goldCode: 'another body', preTest: 'removals of d-f2' },
        repository: 'demo',
        resolution: resolved('f2'),
        task: task('d-f2', ['t::a']),
        verdict: { status: 'passed', reason: null },
        listedFlaky: null,
        theirs: { promptTokens: 12, solutionTokens: 20, complexity: 4 },
      },
    ]);
    expect(audit.entries.map((entry) => [entry.goldPatch, entry.testRemovals])).toEqual([
      ['same', 'same'],
      ['differs', 'same'],
    ]);
    expect(audit.summary).toMatchObject({ samePatches: 1, differentPatches: 1, differentMeasures: 1 });
    const markdown = auditMarkdown(audit);
    expect(markdown).toContain("Gold patch and test removals: 1 the same bytes as the reference's, 1 differ.");
    expect(markdown).toContain('| same / same | 10 / 20 / 3 (same) |');
    expect(markdown).toContain('| differs / same | 10 / 20 / 3 (theirs 12 / 20 / 4) |');
  });
});
