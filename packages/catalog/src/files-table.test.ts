import { describe, expect, it } from 'vitest';
import { appendFile, FILE_COLUMNS, fileFromRow } from './files-table.js';
import { okExtraction, useMigratedDatabase } from './testing/test-support.js';

describe('files table', () => {
  const connection = useMigratedDatabase();

  it('writes the columns in the order the migrations created them', async () => {
    const reader = await connection().runAndReadAll(
      "SELECT column_name FROM duckdb_columns() WHERE table_name = 'files' ORDER BY column_index",
    );
    expect(reader.getRows().map((row) => row[0])).toEqual([...FILE_COLUMNS]);
  });

  it('reads back files with and without an issue', async () => {
    const when = new Date('2024-05-06T07:08:09.010Z');
    const appender = await connection().createAppender('files');
    appendFile(appender, 'repo', okExtraction('ok.py', 2), when);
    appendFile(
      appender,
      'repo',
      {
        ...okExtraction('bad.py', 1),
        status: 'syntax-error',
        issue: { file: 'bad.py', kind: 'syntax-error', lines: [4, 17], message: 'unexpected indent' },
      },
      when,
    );
    appendFile(
      appender,
      'repo',
      {
        ...okExtraction('blob.py', 0),
        status: 'binary',
        issue: { file: 'blob.py', kind: 'binary', lines: [], message: 'NUL byte' },
      },
      when,
    );
    appender.closeSync();

    const reader = await connection().runAndReadAll('SELECT * FROM files ORDER BY file');
    expect(reader.getRowObjects().map(fileFromRow)).toEqual([
      {
        repository: 'repo',
        file: 'bad.py',
        contentHash: 'hash-of-bad.py',
        extractorFingerprint: 'extractor-v1',
        status: 'syntax-error',
        issue: { file: 'bad.py', kind: 'syntax-error', lines: [4, 17], message: 'unexpected indent' },
        functionCount: 1,
        extractedAt: when,
      },
      {
        repository: 'repo',
        file: 'blob.py',
        contentHash: 'hash-of-blob.py',
        extractorFingerprint: 'extractor-v1',
        status: 'binary',
        issue: { file: 'blob.py', kind: 'binary', lines: [], message: 'NUL byte' },
        functionCount: 0,
        extractedAt: when,
      },
      {
        repository: 'repo',
        file: 'ok.py',
        contentHash: 'hash-of-ok.py',
        extractorFingerprint: 'extractor-v1',
        status: 'ok',
        issue: null,
        functionCount: 2,
        extractedAt: when,
      },
    ]);
  });

  it('refuses an unknown status at the database too', async () => {
    await expect(
      connection().run("INSERT INTO files VALUES ('r', 'f', 'h', 'x', 'weird', NULL, NULL, 0, now()::TIMESTAMP)"),
    ).rejects.toThrow(/CHECK constraint/);
  });
});
