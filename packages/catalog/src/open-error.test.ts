import { describe, expect, it } from 'vitest';
import { openError } from './open-error.js';

const io = (message: string): Error => new Error(`IO Error: ${message}`);

describe('openError', () => {
  it('names a file that is not a DuckDB database', () => {
    const error = openError(
      'notes.txt',
      io('The file "/x/notes.txt" exists, but it is not a valid DuckDB database file!'),
    );
    expect(error.code).toBe('catalog-error');
    expect(error.message).toMatch(/^notes\.txt exists but is not a DuckDB database .*choose another catalog path/);
  });

  it('names the process holding the lock', () => {
    const error = openError(
      'c.duckdb',
      io(
        'Could not set lock on file "/x/c.duckdb": Conflicting lock is held in /usr/bin/node (PID 4242). See also ' +
          'https://duckdb.org/docs',
      ),
    );
    expect(error.code).toBe('catalog-unwritable');
    expect(error.message).toBe(
      'c.duckdb is in use by process 4242 (/usr/bin/node); wait for it to finish or stop it, then try again',
    );
  });

  it('says when the path is a directory', () => {
    const error = openError('out/', io('Could not read from file "out": Is a directory'));
    expect(error.code).toBe('catalog-unwritable');
    expect(error.message).toContain('out/catalog.duckdb');
  });

  it("treats other IO errors as an unwritable location and keeps DuckDB's words", () => {
    const error = openError('/proc/c.duckdb', io('Cannot open file "/proc/c.duckdb": No such file or directory'));
    expect(error.code).toBe('catalog-unwritable');
    expect(error.message).toContain('/proc/c.duckdb');
    expect(error.message).toContain('No such file or directory');
  });

  it('keeps the cause', () => {
    const cause = new Error('Invalid Input Error: something else');
    const error = openError('c.duckdb', cause);
    expect(error.code).toBe('catalog-error');
    expect(error.cause).toBe(cause);
  });
});
