import { describe, expect, it } from 'vitest';
import { evaluatedRowLine, evaluationEta, foldEvaluateEvent, startedEvaluation } from './evaluate-view.js';
import { lineText } from './styled-line.js';

describe('the evaluate screen’s view', () => {
  const start = startedEvaluation('preds.jsonl', 0);
  const begun = foldEvaluateEvent(start, {
    kind: 'evaluate-start',
    runId: 'preds@1.0',
    release: 'out/release',
    version: '1.0',
    tasks: 10,
    predictions: 4,
    problems: [{ source: 'preds.jsonl:3', field: 'instance_id', message: 'x is not a task' }],
    since: null,
  });
  const counted = foldEvaluateEvent(begun, {
    kind: 'evaluate-repository',
    repository: 'demo',
    predictions: 4,
    jobs: 3,
    fromRuns: 0,
    fromCatalog: 1,
    workers: 2,
  });
  const task = (instanceId: string, outcome: string) =>
    ({
      kind: 'evaluate-task',
      repository: 'demo',
      model: 'm',
      instanceId,
      outcome,
      detail: 'd',
      done: 1,
      total: 3,
      resolved: 0,
    }) as const;

  it('counts what the catalog answered, then each prediction as it comes, and its resolved ones', () => {
    expect([begun.runId, begun.total, begun.problems]).toEqual([
      'preds@1.0',
      4,
      ['preds.jsonl:3 (instance_id): x is not a task'],
    ]);
    expect([counted.done, counted.fromCatalog]).toEqual([1, 1]);
    const after = foldEvaluateEvent(foldEvaluateEvent(counted, task('a', 'resolved')), task('b', 'patch-failed'));
    expect([after.done, after.resolved, after.rows.map((row) => row.outcome)]).toEqual([
      3,
      1,
      ['resolved', 'patch-failed'],
    ]);
    // Two ran in 10 s, one left: 5 s more at that pace.
    expect(evaluationEta(after, 10_000)).toBe(5);
    expect(evaluationEta(counted, 10_000)).toBeNull();
  });

  it('draws a result row cut to the width, its outcome coloured', () => {
    const row = evaluatedRowLine(
      { repository: 'demo', model: 'm', instanceId: 'demo-x', outcome: 'timeout', detail: 'long '.repeat(30) },
      40,
      false,
    );
    expect(lineText(row)).toHaveLength(40);
    expect(row[0]).toMatchObject({ text: 'timeout      ', color: 'yellow' });
  });
});
