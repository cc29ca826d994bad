import { describe, expect, it } from 'vitest';
import { blankReferenceRow } from './read-reference-rows.js';
import { type AuditInput, auditReference } from './reference-audit.js';
import { referenceReleaseRecord, referenceReleaseSection, rowFates } from './reference-release.js';
import type { RowResolution } from './resolve-reference-row.js';

const resolved = (qualname: string, extra: Partial<RowResolution> = {}): RowResolution =>
  ({
    status: 'resolved',
    function: { file: 'pkg/m.py', qualname },
    by: 'name',
    text: 'exact',
    textField: 'full_function',
    outsideCandidates: false,
    nameMatches: 1,
    notes: [],
    ...extra,
  }) as RowResolution;

const task = (instanceId: string, failToPass: string[]) => ({
  instanceId,
  failToPass,
  levels: { deps: 'self-contained' },
  promptTokens: 10,
  solutionTokens: 20,
  complexity: 3,
  checksPassed: true,
  goldCode: 'gold',
  preTest: 'removals',
});

function input(index: number, fields: Partial<AuditInput>): AuditInput {
  return {
    row: { ...blankReferenceRow(index, `ref.jsonl:${index}`, 'seed', 'acme/demo'), functionName: `f${index}` },
    repository: 'demo',
    resolution: resolved(`f${index}`),
    task: task(`demo-f${index}`, ['t::a']),
    verdict: { status: 'passed', reason: null },
    listedFlaky: null,
    ...fields,
  };
}

describe('rowFates and referenceReleaseSection', () => {
  const audit = auditReference('repocod-lite', [
    input(1, {}),
    input(2, {
      row: {
        ...blankReferenceRow(2, 'ref.jsonl:2', 'seed', 'acme/demo'),
        functionName: 'f2',
        failToPass: ['t::a', 't::net'],
        goldCode: 'other gold',
      },
      lackingReasons: { 't::net': 'network-bound' },
      resolution: resolved('f2', { text: 'whitespace', notes: ['chosen among 2 named f2: the first in its file'] }),
    }),
    input(3, {
      resolution: {
        status: 'unresolved',
        reason: 'file-absent',
        message: 'target_module_path pkg/gone.py is not a Python file at the commit',
        matches: [],
        difference: null,
        notes: [],
      },
      task: null,
      verdict: null,
    }),
    input(4, { task: null, verdict: null }),
    input(5, { verdict: { status: 'failed', reason: 'fails-without-body (no test fails)' } }),
    input(6, {}),
  ]);
  const fates = rowFates(audit, new Set(['demo-f1', 'demo-f2']));

  it('says why each row is left out, in order of what went first', () => {
    expect(fates.map((fate) => fate.leftOut)).toEqual([
      null,
      null,
      'not resolved (file-absent): target_module_path pkg/gone.py is not a Python file at the commit',
      'no task: not mined, or mining found no relevant tests',
      'failed validation: fails-without-body (no test fails)',
      "not picked by the selection's quotas",
    ]);
  });

  it("lists a released task's differences from its row, and nothing for a task that is its row", () => {
    expect(fates[0]?.changes).toEqual([]);
    expect(fates[1]?.changes).toEqual([
      'FAIL_TO_PASS 1 against 2: adds 0, lacks 1 (network-bound 1)',
      "gold patch differs from the reference's",
      'its text agrees with ours only once whitespace is normalised',
      'chosen among 2 named f2: the first in its file',
    ]);
  });

  it('writes the card section naming the reference and its revision, and a JSON line per row', () => {
    const section = referenceReleaseSection(
      audit,
      {
        name: 'repocod-lite',
        source: 'hub:lt-asset/REPOCOD_Lite_Unified@abc123',
        revision: 'abc123',
        config: '1.0',
        form: 'seed',
        contentHash: 'f'.repeat(64),
      },
      fates,
    );
    expect(section).toContain(
      'the reference `repocod-lite` (`hub:lt-asset/REPOCOD_Lite_Unified@abc123`, config `1.0`, revision `abc123`, ' +
        'seed form, content sha256 `ffffffffffffffff`)',
    );
    expect(section).toContain(`> ${audit.headline}.`);
    expect(section).toContain('Released: 2 of the 6 rows; left out: 4; released with a difference from their row: 1.');
    expect(section).toContain('| 3 | demo | `f3` | – | not resolved (file-absent): target_module_path pkg/gone.py');
    expect(section).toContain("| 6 | demo | `f6` | `demo-f6` | not picked by the selection's quotas |");
    expect(section).toContain(
      '| 2 | demo | `f2` | `demo-f2` | FAIL_TO_PASS 1 against 2: adds 0, lacks 1 (network-bound 1); ',
    );
    const lines = referenceReleaseRecord(fates).trimEnd().split('\n');
    expect(lines).toHaveLength(6);
    expect(JSON.parse(lines[2] ?? '')).toMatchObject({ index: 3, where: 'ref.jsonl:3', released: false });
  });
});
