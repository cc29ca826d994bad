import type { TaskRow } from '@repocod/catalog';
import { IN_MEMORY, openCatalog } from '@repocod/catalog';
import { afterEach, describe, expect, it } from 'vitest';
import { copyDemo, makeTempDir, type TempDir } from '../testing/test-support.js';
import { extractStep } from './extract.js';
import { checkOneCommitPerCatalog, OtherCommitSelectedError } from './one-commit-per-catalog.js';

const AT_2024 = 'a'.repeat(40);
const AT_2026 = 'b'.repeat(40);

function task(instanceId: string, baseCommit: string): TaskRow {
  return {
    instanceId,
    repository: 'demo',
    functionId: `demo:m.py:${instanceId}:1`,
    file: 'm.py',
    qualname: instanceId,
    repo: 'o/demo',
    baseCommit,
    baseCommitTimestamp: '2024-01-01T00:00:00+00:00',
    prompt: 'def f():\n    """Doc."""\n',
    solution: '    return 1\n',
    promptLines: 2,
    solutionLines: 1,
    promptTokens: 10,
    solutionTokens: 5,
    complexity: 1,
    level: 'self-contained',
    levelMode: 'deps',
    levels: { deps: { level: 'self-contained', calls: [] } },
    dependencies: [],
    failToPass: ['t.py::test_f'],
    problemCode: 'code',
    problemTest: 'test',
    preCode: 'pre',
    goldCode: 'gold',
    preTest: '',
    goldTest: '',
    checks: {
      roundTrip: true,
      applies: true,
      collects: true,
      bodyNeededAtCollection: false,
      testsNotFound: [],
      messages: [],
    },
    checksPassed: true,
  };
}

describe('checkOneCommitPerCatalog', () => {
  let temp: TempDir | undefined;
  afterEach(() => temp?.cleanup());

  it('lets another commit replace tasks no selection picks, and refuses once a selection picks them', async () => {
    const catalog = await openCatalog(IN_MEMORY);
    try {
      await catalog.replaceTasks('demo', [task('demo-m.f', AT_2024), task('demo-m.g', AT_2024)]);
      await checkOneCommitPerCatalog(catalog, 'demo', AT_2026);
      await catalog.saveSelection('sel-1', '{}', [
        { instanceId: 'demo-m.g', level: 'self-contained', score: 1, rank: 1 },
      ]);
      await checkOneCommitPerCatalog(catalog, 'demo', AT_2024);
      await checkOneCommitPerCatalog(catalog, 'other', AT_2026);
      const refused = await checkOneCommitPerCatalog(catalog, 'demo', AT_2026).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(OtherCommitSelectedError);
      const error = refused as OtherCommitSelectedError;
      expect([error.code, error.repository, error.baseCommit, error.storedCommit]).toEqual([
        'usage',
        'demo',
        AT_2026,
        AT_2024,
      ]);
      expect([...error.selections]).toEqual([['sel-1', 1]]);
      expect(error.message).toContain('holds its tasks at aaaaaaaaaaaa (1 picked by selection sel-1)');
      expect(error.message).toContain('--db .repocod/demo-bbbbbbbb.duckdb');
    } finally {
      await catalog.close();
    }
  });

  it('stops extraction at another commit before it replaces anything', async () => {
    temp = makeTempDir();
    const root = copyDemo(temp.dir);
    const catalog = await openCatalog(IN_MEMORY);
    try {
      await catalog.replaceTasks('demo', [task('demo-m.f', AT_2024)]);
      await catalog.saveSelection('sel-1', '{}', [
        { instanceId: 'demo-m.f', level: 'self-contained', score: 1, rank: 1 },
      ]);
      await expect(extractStep(catalog, { root, repository: 'demo', baseCommit: AT_2026 })).rejects.toThrow(
        OtherCommitSelectedError,
      );
      expect(await catalog.repositories()).toEqual([]);
      const extracted = await extractStep(catalog, { root, repository: 'demo', baseCommit: AT_2024 });
      expect(extracted.functions).toBeGreaterThan(0);
    } finally {
      await catalog.close();
    }
  });
});
