import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import type { AnalysedFunction } from '@repocod/core';
import { afterEach, beforeEach } from 'vitest';
import type { FileExtraction } from '../file-extraction.js';
import { migrate } from '../migrate.js';
import type { RunRecord, TestOutcome, TestResultRecord } from '../runs-table.js';

/** Shared by the tests only: synthetic functions, runs and throwaway folders. */

export async function makeTempDir(): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'repocod-catalog-'));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** A plausible method: the `index`-th definition of `file`, each 20 lines long. */
export function syntheticFunction(
  file: string,
  index: number,
  overrides: Partial<AnalysedFunction> = {},
): AnalysedFunction {
  const start = 1 + index * 20;
  const prompt = `    def method_${index}(self, a, b):\n        """Doc\n\n        more\n        """\n`;
  const solution = `        return a + b  # ${index}\n`;
  return {
    file,
    name: `method_${index}`,
    qualname: `Widget.method_${index}`,
    className: 'Widget',
    nested: false,
    kind: 'method',
    isAsync: false,
    decorators: index % 3 === 0 ? ['staticmethod', 'functools.cache'] : [],
    isTestCode: false,
    definitionSpan: { start, end: start + 5 },
    signatureSpan: { start: start + (index % 3 === 0 ? 2 : 0), end: start + 2 },
    docstringSpan: index % 2 === 0 ? { start: start + 3, end: start + 15 } : null,
    bodySpan: { start: start + 3, end: start + 16 },
    slices: { prompt, solution, full: prompt + solution },
    parameterCount: 3,
    metrics: {
      cyclomatic: 1 + (index % 7),
      promptTokens: 20 + index,
      solutionTokens: 8,
      promptLines: 5,
      solutionLines: 1,
      halsteadVolume: 12.5 + index / 3,
      halsteadEffort: 40.25,
      logicalLines: 1,
      maintainability: 71.123456789,
    },
    isCandidate: index % 2 === 0,
    ...overrides,
  };
}

export function okExtraction(file: string, functionCount: number, contentHash = `hash-of-${file}`): FileExtraction {
  return {
    file,
    contentHash,
    extractorFingerprint: 'extractor-v1',
    status: 'ok',
    issue: null,
    functions: Array.from({ length: functionCount }, (_, i) => syntheticFunction(file, i)),
  };
}

/** A plausible finished run of job `jobHash`; the run id names the job and the attempt. */
export function syntheticRun(jobHash: string, attempt: number, overrides: Partial<RunRecord> = {}): RunRecord {
  const startedAt = new Date(Date.UTC(2024, 4, 6, 7, 8, attempt, 10 * attempt));
  return {
    runId: `${jobHash}#${attempt}`,
    jobHash,
    repository: 'pallets/flask',
    baseCommit: '2fec0b206c6e83ea813ab26597e15c96fab08be7',
    environmentKey: `env-${jobHash}`,
    recipeHash: 'recipe-1',
    patchesHash: `patches-${jobHash}`,
    testsHash: `tests-${jobHash}`,
    attempt,
    status: 'ok',
    exitCode: 1,
    durationSeconds: 12.345 + attempt,
    network: 'none',
    worker: attempt % 2 === 0 ? null : attempt,
    log: `$ pytest -p repocod_select\n${'collected 3000 items\n'.repeat(3)}attempt ${attempt} — done\n`,
    startedAt,
    finishedAt: new Date(startedAt.getTime() + 12_345),
    ...overrides,
  };
}

const OUTCOMES: readonly TestOutcome[] = ['passed', 'failed', 'error', 'skipped', 'xfailed', 'xpassed', 'missing'];

/** `count` results over every outcome, in the reverse of node-id order; failures carry a message. */
export function syntheticResults(count: number, prefix = 'tests/test_app.py::TestApp::test'): TestResultRecord[] {
  return Array.from({ length: count }, (_, i) => {
    const index = count - 1 - i;
    const outcome = OUTCOMES[index % OUTCOMES.length] ?? 'passed';
    return {
      nodeId: `${prefix}_${String(index).padStart(5, '0')}[naïve-${index % 3}]`,
      outcome,
      durationSeconds: outcome === 'missing' ? 0 : index / 1000 + 0.0001,
      message:
        outcome === 'failed' || outcome === 'error'
          ? `AssertionError: ${index} != ${index + 1}\n  at line ${index}`
          : null,
    };
  });
}

/** Results ordered as the catalog returns them: by node id, in code point order. */
export function byNodeId(results: readonly TestResultRecord[]): TestResultRecord[] {
  return [...results].sort((a, b) => (a.nodeId < b.nodeId ? -1 : a.nodeId > b.nodeId ? 1 : 0));
}

/**
 * A migrated in-memory database for each test of the calling describe block; the returned function
 * gives the current test's connection.
 */
export function useMigratedDatabase(): () => DuckDBConnection {
  let instance: DuckDBInstance | undefined;
  let connection: DuckDBConnection | undefined;
  beforeEach(async () => {
    instance = await DuckDBInstance.create(':memory:');
    connection = await instance.connect();
    await migrate(connection, 'test');
  });
  afterEach(() => {
    connection?.closeSync();
    instance?.closeSync();
  });
  return () => {
    if (connection === undefined) throw new Error('the database exists only inside a test');
    return connection;
  };
}
