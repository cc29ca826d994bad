import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BadReleaseFileError, GET_RELEASE_AGAIN } from './bad-release-file-error.js';
import { RELEASE_ROW_COLUMNS } from './release-columns.js';
import { PARQUET_NAME, readReleaseRows } from './release-folder.js';
import { writeReleaseFixture } from './testing/hub-test-support.js';
import { otherSchemaParquet, REPOCOD_FORM_COLUMNS } from './testing/other-schema-parquet.js';

const { folder } = writeReleaseFixture(['1.0', '1.1']);
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

describe('checkReleaseColumns', () => {
  it("holds the seed's columns that have content, and a release written by publish has them all", () => {
    expect(RELEASE_ROW_COLUMNS).toEqual([
      'instance_id',
      'version',
      'gold_patches',
      'pre_patches',
      'repo',
      'base_commit',
      'base_commit_timestamp',
      'problem_statement',
      'environment_setup_commit',
      'evaluation',
    ]);
    expect(readReleaseRows(join(folder, '1.0', PARQUET_NAME))).toHaveLength(2);
  });

  it("refuses REPOCOD's own rows, saying so and naming the command that reads them", () => {
    const file = join(folder, '1.0', PARQUET_NAME);
    writeFileSync(file, otherSchemaParquet(REPOCOD_FORM_COLUMNS));
    const error = badFile(file);
    expect([error.code, error.problem, error.file]).toEqual(['usage', 'wrong-schema', file]);
    expect(error.message).toBe(
      [
        `${file}: rows of another schema (none of the 10 columns a release row has: instance_id, version,`,
        'gold_patches, pre_patches, repo, base_commit and 4 more; its 2 row(s) have repository, repo_id,',
        "target_module_path, prompt, full_function, function_name and 1 more: REPOCOD's own form, as lt-asset/REPOCOD",
        "on the Hub has it, not the seed's a release has); `repocod reference add NAME --from FILE` reads REPOCOD's",
        'form; evaluate, prompts and report --diff read a release `repocod publish` wrote',
      ].join(' '),
    );
  });

  it('names the first columns missing from rows of another schema, and their count', () => {
    const file = join(folder, '1.1', PARQUET_NAME);
    const ids = ['a', 'b', 'c'];
    writeFileSync(file, otherSchemaParquet({ instance_id: ids, repo: ids, base_commit: ids, model_patch: ids }));
    const error = badFile(file);
    expect(error.problem).toBe('wrong-schema');
    expect(error.detail).toBe(
      [
        'no column version, gold_patches, pre_patches, base_commit_timestamp, problem_statement,',
        'environment_setup_commit and 1 more, of the 10 a release row has; its 3 row(s) have instance_id, repo,',
        "base_commit, model_patch: a release has the seed's, REPOCOD_Lite_Unified's",
      ].join(' '),
    );
    expect(error.fix).toBe(GET_RELEASE_AGAIN);
  });
});
