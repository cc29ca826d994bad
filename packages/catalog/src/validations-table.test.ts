import { describe, expect, it } from 'vitest';
import { IN_MEMORY, openCatalog } from './catalog.js';
import { useMigratedDatabase } from './testing/test-support.js';
import { type StoredValidation, VALIDATION_COLUMNS } from './validations-table.js';

function validation(
  instanceId: string,
  validationKey: string,
  overrides: Partial<StoredValidation> = {},
): StoredValidation {
  return {
    instanceId,
    taskHash: `task-${instanceId}`,
    validationKey,
    repository: instanceId.startsWith('b') ? 'other' : 'r',
    status: 'passed',
    checks: [],
    failToPass: ['t.py::test_a', 't.py::test_b[x-y]'],
    flakyTests: [],
    droppedTests: [],
    toolVersion: 'repocod-kit 0.1.0',
    pythonVersion: '3.11.7',
    packagesHash: 'p'.repeat(64),
    environmentKey: 'e'.repeat(64),
    runIds: ['job1:1', 'job2:1', 'job3:1', 'job3:2', 'job3:3'],
    repeat: 3,
    seconds: 1.5,
    validatedAt: new Date(Date.UTC(2026, 11, 2, 12, 0)),
    passingWithoutBody: [],
    withoutBodyComplete: true,
    goldFrom: 'runs',
    goldBaselineKey: null,
    ...overrides,
  };
}

describe('validations table', () => {
  const connection = useMigratedDatabase();

  it('is written in the column order the migration created', async () => {
    const reader = await connection().runAndReadAll(
      `SELECT column_name FROM duckdb_columns() WHERE table_name = 'validations' ORDER BY column_index`,
    );
    expect(reader.getRows().map((row) => row[0])).toEqual([...VALIDATION_COLUMNS]);
  });

  it(
    'stores a validation per task and key, replaces it on the same key, and filters by ' + 'repository and task',
    async () => {
      const catalog = await openCatalog(IN_MEMORY);
      try {
        await catalog.saveValidation(
          validation('a', 'k1', {
            status: 'failed',
            checks: [{ check: 'collects', status: 'failed', tests: [], detail: 'x', log: 'E', runIds: ['r1'] }],
          }),
        );
        await catalog.saveValidation(validation('a', 'k1', { status: 'passed', flakyTests: ['t.py::test_c'] }));
        await catalog.saveValidation(
          validation('a', 'k2', { status: 'infra-error', validatedAt: new Date(Date.UTC(2026, 11, 2, 13, 0)) }),
        );
        await catalog.saveValidation(validation('b', 'k1', { droppedTests: ['t.py::test_d'], failToPass: [] }));
        const fromBaseline = {
          passingWithoutBody: ['t.py::test_b[x-y]'],
          withoutBodyComplete: false,
          goldFrom: 'baseline',
          goldBaselineKey: 'm'.repeat(64),
        } as const;
        await catalog.saveValidation(validation('d', 'k1', fromBaseline));
        expect((await catalog.validations({ instanceIds: ['d'] }))[0]).toEqual(validation('d', 'k1', fromBaseline));
        await catalog.query(`DELETE FROM validations WHERE instance_id = 'd'`);
        const all = await catalog.validations();
        expect(all.map((row) => [row.instanceId, row.validationKey, row.status])).toEqual([
          ['a', 'k2', 'infra-error'],
          ['a', 'k1', 'passed'],
          ['b', 'k1', 'passed'],
        ]);
        expect(all[1]).toEqual(validation('a', 'k1', { flakyTests: ['t.py::test_c'] }));
        expect(
          (await catalog.validations({ repository: 'other' })).map((row) => [
            row.instanceId,
            row.failToPass,
            row.droppedTests,
          ]),
        ).toEqual([['b', [], ['t.py::test_d']]]);
        expect((await catalog.validations({ instanceIds: ['b', 'zz'] })).map((row) => row.instanceId)).toEqual(['b']);
        expect(await catalog.validations({ instanceIds: [] })).toEqual([]);
        await expect(
          catalog.saveValidation(validation('c', 'k1', { status: 'unknown' as StoredValidation['status'] })),
        ).rejects.toThrow(/storing the validation of c failed/);
        expect((await catalog.validations()).map((row) => row.instanceId)).not.toContain('c');
      } finally {
        await catalog.close();
      }
    },
  );
});
