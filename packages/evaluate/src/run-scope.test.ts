import { describe, expect, it } from 'vitest';
import type { ReportTask } from './evaluation-report.js';
import { evaluationReport } from './evaluation-report.js';
import { reportText } from './report-text.js';
import { parseRunScope, runScopeText } from './run-scope.js';
import type { SinceScope } from './since-scope.js';

const TASKS: readonly ReportTask[] = [
  { instanceId: 'a-1', repository: 'alpha', level: 'self-contained', complexity: 1, solutionTokens: 10 },
];
const SINCE: SinceScope = {
  since: '2025-06-01T00:00:00Z',
  scored: 1,
  changedBefore: ['b-2', 'a-2'],
  withoutBodyDate: ['c-1'],
};

describe('the stored scope of an evaluation run', () => {
  it('is the list of tasks without --since, the form runs had before it', () => {
    const text = runScopeText({ tasks: TASKS, since: null });
    expect(text).toBe(JSON.stringify(TASKS));
    expect(parseRunScope(text, 'gold@1.0')).toEqual({ tasks: TASKS, since: null });
  });

  it('keeps the date and the tasks left out with --since', () => {
    const text = runScopeText({ tasks: TASKS, since: SINCE });
    expect(parseRunScope(text, 'gold@2.0-since-2025-06-01')).toEqual({ tasks: TASKS, since: SINCE });
  });

  it("keeps REPOCOD's insertion, with or without --since, and reads the lenient one back as it was", () => {
    const text = runScopeText({ tasks: TASKS, since: null, insertion: 'repocod' });
    expect(parseRunScope(text, 'preds@1.0-insert-repocod')).toEqual({
      tasks: TASKS,
      since: null,
      insertion: 'repocod',
    });
    expect(runScopeText({ tasks: TASKS, since: null, insertion: 'lenient' })).toBe(JSON.stringify(TASKS));
  });

  it('names the run whose stored scope is neither form', () => {
    expect(() => parseRunScope('{"tasks": 3}', 'broken@1.0')).toThrow(
      'evaluation run broken@1.0: its stored scope is neither tasks nor {since, tasks}',
    );
  });
});

describe('the report of a run --since', () => {
  const results = [{ instanceId: 'a-1', outcome: 'resolved' as const }];

  it('says the date, how many tasks were scored and which were left out and why', () => {
    const report = evaluationReport('gold@2.0-since-2025-06-01', 'gold', TASKS, results, SINCE);
    expect(report.since).toEqual({
      date: '2025-06-01T00:00:00Z',
      scored_instances: 1,
      left_out_instances: 3,
      changed_before_ids: ['a-2', 'b-2'],
      without_body_date_ids: ['c-1'],
    });
    expect(report.total_instances).toBe(1);
    expect(reportText(report).split('\n')[3]).toBe(
      'since 2025-06-01T00:00:00Z: 1 task(s) scored, whose body changed on or after it; 3 left out (2 changed ' +
        'before it, 1 without a body date)',
    );
  });

  it('has no since key, nor line, without --since', () => {
    const report = evaluationReport('gold@1.0', 'gold', TASKS, results);
    expect(Object.keys(report)).not.toContain('since');
    expect(reportText(report)).not.toContain('since');
  });
});
