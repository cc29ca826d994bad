import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { damageParquetFooter, truncateToHalf } from '@repocod/testkit';
import { afterAll, describe, expect, it } from 'vitest';
import { BadReleaseFileError, GET_RELEASE_AGAIN } from './bad-release-file-error.js';
import { readParquetRows } from './parquet-rows.js';
import { PARQUET_NAME, readReleaseRows } from './release-folder.js';
import { writeReleaseFixture } from './testing/hub-test-support.js';

const { folder } = writeReleaseFixture(['1.0', '1.1', '1.2', '1.3', '1.4']);
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** The BadReleaseFileError reading `file` throws; anything else fails the test. */
function badFile(file: string): BadReleaseFileError {
  try {
    readReleaseRows(file);
  } catch (error) {
    if (error instanceof BadReleaseFileError) return error;
    throw error;
  }
  throw new Error(`${file} was read`);
}

/** A version's Parquet file of the release, broken by `breakIt`, then read. */
function broken(version: string, breakIt: (file: string) => void): BadReleaseFileError {
  const file = join(folder, version, PARQUET_NAME);
  breakIt(file);
  return badFile(file);
}

describe('readParquetRows', () => {
  it("reads a release's Parquet file whole: its columns and its rows", () => {
    const read = readParquetRows(join(folder, '1.0', PARQUET_NAME));
    expect(read.columns.slice(0, 3)).toEqual(['instance_id', 'version', 'gold_patches']);
    expect(read.rows.map((row) => row.instance_id)).toEqual(['task_0', 'task_1']);
  });

  it('names a truncated file, says it was cut short and what to do, as a usage error', () => {
    const error = broken('1.0', truncateToHalf);
    expect([error.code, error.problem, error.file]).toEqual([
      'usage',
      'corrupt-parquet',
      join(folder, '1.0', PARQUET_NAME),
    ]);
    expect(error.message).toMatch(/^\S+\/1\.0\/test-00000-of-00001\.parquet: not a readable Parquet file \(\d+ bytes/);
    expect(error.message).toContain("do not end with Parquet's PAR1 mark: cut short, truncated");
    expect(error.message).toContain('parquet-wasm: Parquet error: Invalid Parquet file. Corrupt footer');
    expect(error.message.endsWith(`); ${GET_RELEASE_AGAIN}`)).toBe(true);
  });

  it('names a file whose footer is damaged, its size and both marks intact', () => {
    const error = broken('1.1', damageParquetFooter);
    expect([error.problem, error.file]).toEqual(['corrupt-parquet', join(folder, '1.1', PARQUET_NAME)]);
    expect(error.message).toMatch(
      /: not a readable Parquet file \(\d+ bytes, its footer or its pages damaged; parquet-wasm: /,
    );
  });

  it('names an empty file', () => {
    const error = broken('1.2', (file) => writeFileSync(file, ''));
    expect(error.problem).toBe('corrupt-parquet');
    expect(error.message).toContain(
      `${join(folder, '1.2', PARQUET_NAME)}: not a readable Parquet file (an empty file, 0 bytes);`,
    );
  });

  it('names a file that is not Parquet at all', () => {
    const error = broken('1.3', (file) => writeFileSync(file, 'instance_id,repo\ntask_0,demo/demo\n'));
    expect(error.problem).toBe('corrupt-parquet');
    expect(error.message).toContain("bytes that do not start with Parquet's PAR1 mark: not a Parquet file at all");
  });

  it('names a missing file, and ends with the fix its reader gives', () => {
    const file = join(folder, '1.4', PARQUET_NAME);
    rmSync(file);
    expect(() => readParquetRows(file, 'give another --from')).toThrow(
      new BadReleaseFileError(file, 'missing-file', 'no such file', 'give another --from'),
    );
    expect(badFile(file).message).toBe(`${file}: missing (no such file); ${GET_RELEASE_AGAIN}`);
  });
});
