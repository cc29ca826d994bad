import { describe, expect, it } from 'vitest';
import { evaluationReport } from './evaluation-report.js';
import { reportText } from './report-text.js';

const tasks = [
  { instanceId: 'a-1', repository: 'a', level: 'self-contained', complexity: 1, solutionTokens: 10 },
  { instanceId: 'a-2', repository: 'a', level: 'file-level', complexity: 4, solutionTokens: 70 },
  { instanceId: 'b-1', repository: 'b', level: 'repo-level', complexity: 12, solutionTokens: 500 },
  { instanceId: 'b-2', repository: 'b', level: null, complexity: null, solutionTokens: null },
  { instanceId: 'b-3', repository: 'b', level: 'repo-level', complexity: 7, solutionTokens: 300 },
];

describe('evaluationReport', () => {
  const report = evaluationReport('r1', 'm', tasks, [
    { instanceId: 'a-1', outcome: 'resolved' },
    { instanceId: 'a-2', outcome: 'unresolved' },
    { instanceId: 'b-1', outcome: 'patch-failed' },
    { instanceId: 'b-2', outcome: 'empty' },
    { instanceId: 'zz', outcome: 'resolved' },
  ]);
  it("gives SWE-bench's summary keys, out-of-scope results left out", () => {
    expect(report).toMatchObject({
      total_instances: 5,
      submitted_instances: 4,
      completed_instances: 2,
      resolved_instances: 1,
      unresolved_instances: 1,
      empty_patch_instances: 1,
      error_instances: 1,
      resolved_ids: ['a-1'],
      error_ids: ['b-1'],
      patch_failed_ids: ['b-1'],
      incomplete_ids: ['b-3'],
      pass_at_1: 0.2,
    });
  });
  it('breaks pass@1 down by repository, level, complexity and solution length', () => {
    expect(report.by_repository).toEqual([
      { group: 'a', tasks: 2, resolved: 1, passAt1: 0.5 },
      { group: 'b', tasks: 3, resolved: 0, passAt1: 0 },
    ]);
    expect(report.by_level.map((rate) => rate.group)).toEqual([
      'self-contained',
      'file-level',
      'repo-level',
      'unknown',
    ]);
    expect(report.by_complexity.map((rate) => [rate.group, rate.tasks])).toEqual([
      ['M ≤ 2', 1],
      ['3–5', 1],
      ['6–10', 1],
      ['≥ 11', 1],
      ['unknown', 1],
    ]);
    expect(report.by_solution_length.map((rate) => rate.group)).toEqual([
      '[0, 66)',
      '[66, 128)',
      '[232, 435)',
      '≥ 435',
      'unknown',
    ]);
  });
  it('prints a table', () => {
    const text = reportText(report);
    expect(text).toContain('pass@1 20.0%: 1 of 5 tasks resolved');
    expect(text).toContain(
      '1 resolved, 1 unresolved, 1 empty, 1 patch failed, 0 timeout, 0 error, 1 without prediction',
    );
    expect(text).toMatch(/repository\s+tasks\s+resolved\s+pass@1\na\s+2\s+1\s+50\.0%/);
  });
});
