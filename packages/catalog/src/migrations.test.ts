import { describe, expect, it } from 'vitest';
import { checkMigrationOrder, latestSchemaVersion, MIGRATIONS } from './migrations.js';

describe('MIGRATIONS', () => {
  it('are numbered 1, 2, 3 … in list order', () => {
    expect(checkMigrationOrder(MIGRATIONS)).toBeNull();
    expect(latestSchemaVersion()).toBe(MIGRATIONS.length);
  });

  it('reports a gap or a repeat by name', () => {
    expect(
      checkMigrationOrder([
        { version: 1, name: 'a', sql: '' },
        { version: 3, name: 'b', sql: '' },
      ]),
    ).toBe('migration "b" has version 3, expected 2');
    expect(
      checkMigrationOrder([
        { version: 1, name: 'a', sql: '' },
        { version: 1, name: 'b', sql: '' },
      ]),
    ).toMatch(/"b"/);
  });

  it('gives version 0 for an empty list', () => {
    expect(latestSchemaVersion([])).toBe(0);
  });
});
