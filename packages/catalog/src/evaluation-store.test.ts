import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Catalog, openCatalog } from './catalog.js';
import type { StoredEvaluation } from './evaluation-store.js';
import { makeTempDir } from './testing/test-support.js';

const at = new Date(Date.UTC(2026, 11, 4, 10, 0, 0));

function evaluation(instanceId: string, outcome: string, overrides: Partial<StoredEvaluation> = {}): StoredEvaluation {
  return {
    runId: 'run-1',
    model: 'gpt',
    instanceId,
    repository: 'demo',
    evaluationKey: `key-${instanceId}`,
    predictionSource: 'p.jsonl:1',
    outcome,
    detail: 'd',
    failingTests: '[]',
    jobHash: outcome === 'empty' ? null : `job-${instanceId}`,
    runIds: outcome === 'empty' ? [] : [`job-${instanceId}:1`],
    seconds: 1.5,
    evaluatedAt: at,
    ...overrides,
  };
}

describe('Catalog evaluations', () => {
  let catalog: Catalog;
  let path: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    let dir: string;
    ({ dir, cleanup } = await makeTempDir());
    path = join(dir, 'catalog.duckdb');
    catalog = await openCatalog(path);
  });
  afterEach(async () => {
    await catalog.close();
    await cleanup();
  });

  it('keeps one row per run, model and task, the latest, and the run with its scope across reopening', async () => {
    await catalog.saveEvaluationRun({
      runId: 'run-1',
      release: 'out/release',
      version: '1.0',
      tasks: '[]',
      startedAt: at,
    });
    await catalog.saveEvaluation(evaluation('b', 'unresolved'));
    await catalog.saveEvaluation(evaluation('a', 'empty'));
    await catalog.saveEvaluation(evaluation('b', 'resolved', { evaluationKey: 'key-b2' }));
    await catalog.saveEvaluation(evaluation('a', 'resolved', { model: 'claude' }));
    await catalog.saveEvaluationRun({
      runId: 'run-1',
      release: 'out/release',
      version: '1.0',
      tasks: '[1]',
      startedAt: new Date(),
    });
    await catalog.close();
    catalog = await openCatalog(path);
    const rows = await catalog.evaluations('run-1');
    expect(rows.map((row) => [row.model, row.instanceId, row.outcome, row.evaluationKey, row.jobHash])).toEqual([
      ['claude', 'a', 'resolved', 'key-a', 'job-a'],
      ['gpt', 'a', 'empty', 'key-a', null],
      ['gpt', 'b', 'resolved', 'key-b2', 'job-b'],
    ]);
    expect(rows[2]).toEqual(evaluation('b', 'resolved', { evaluationKey: 'key-b2' }));
    expect(await catalog.evaluationRun('run-1')).toEqual({
      runId: 'run-1',
      release: 'out/release',
      version: '1.0',
      tasks: '[1]',
      startedAt: at,
    });
    expect(await catalog.evaluationRun('nope')).toBeNull();
    expect(await catalog.evaluationRuns()).toEqual([
      { runId: 'run-1', release: 'out/release', version: '1.0', models: 2, evaluations: 3, resolved: 2, startedAt: at },
    ]);
  });
});
