import { spawnSync } from 'node:child_process';
import { cpSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openCatalog, releaseFolderVersions } from '@repocod/pipeline';
import { damageParquetFooter, truncateToHalf } from '@repocod/testkit';
import { afterAll, describe, expect, it } from 'vitest';
import { demoFixture } from './testing/demo-fixture.js';
import { CLI_PATH, makeTempDir, runMain } from './testing/test-support.js';

/**
 * Each command that reads a release, given the release the demo's whole flow published with one of its files broken
 * for real: a usage error (exit 2) whose one line names the file, what is wrong and what to do, never a stack trace.
 * (What each message says in full is publish's parquet-rows, release-columns and read-release tests.)
 */
const temp = makeTempDir();
afterAll(() => temp.cleanup(), 60_000);
const PARQUET = 'test-00000-of-00001.parquet';

/** A private copy of the demo's release, its version and a catalog of its own (a command run opens it). */
function release(name: string): { folder: string; version: string; db: string } {
  const folder = join(temp.dir, name);
  cpSync(demoFixture().releaseFolder, folder, { recursive: true });
  const [version = ''] = releaseFolderVersions(folder);
  return { folder, version, db: `${folder}.duckdb` };
}

/** What a command printed on a bad release file: exit 2, one error line naming the file, no stack. */
function expectBadFile(
  result: { code: number | null; stdout: string; stderr: string },
  file: string,
  what: string,
): void {
  expect(result.code, result.stderr).toBe(2);
  expect(result.stderr.startsWith(`error: ${file}: ${what} (`), result.stderr).toBe(true);
  expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(result.stderr).not.toMatch(/^\s+at /m);
  expect(result.stderr).not.toContain('internal error');
  expect(result.stdout).toBe('');
}

/** Two rows of REPOCOD's own form (lt-asset/REPOCOD's columns), as DuckDB writes a Parquet file. */
async function writeRepocodForm(file: string): Promise<void> {
  const catalog = await openCatalog(join(temp.dir, 'writer.duckdb'));
  try {
    await catalog.query(
      `COPY (SELECT * FROM (VALUES ('seaborn', 28, 'seaborn/axisgrid.py', 'axisgrid.PairGrid.__init__'),
                                   ('flask', 3, 'src/flask/app.py', 'Flask.run'))
               AS t(repository, repo_id, target_module_path, function_name))
         TO '${file}' (FORMAT parquet)`,
    );
  } finally {
    await catalog.close();
  }
}

describe('repocod evaluate on a broken release', () => {
  it('names a truncated Parquet file, in the built binary too: exit 2, no stack trace', () => {
    const { folder, version, db } = release('evaluate-truncated');
    const file = join(folder, version, PARQUET);
    truncateToHalf(file);
    const args = ['evaluate', '--gold', '--release', folder, '--version', version, '--db', db];
    const run = spawnSync(process.execPath, [CLI_PATH, ...args], { encoding: 'utf8', timeout: 60_000 });
    const result = { code: run.status, stdout: run.stdout, stderr: run.stderr };
    expectBadFile(result, file, 'not a readable Parquet file');
    expect(result.stderr).toContain("do not end with Parquet's PAR1 mark: cut short, truncated");
    expect(result.stderr).toContain('download the release again into an empty folder');
  });

  it('names the card when a version there is not one it lists', async () => {
    const { folder, version, db } = release('evaluate-unlisted');
    cpSync(join(folder, version), join(folder, '9.9'), { recursive: true });
    const result = await runMain(['evaluate', '--gold', '--release', folder, '--version', '9.9', '--db', db]);
    expectBadFile(result, join(folder, 'README.md'), 'no config for the version asked for');
    expect(result.stderr).toContain(`publish the version again (\`repocod publish --version 9.9 --out ${folder}\``);
  });

  it('names the Parquet file of a version the card lists that is missing', async () => {
    const { folder, version, db } = release('evaluate-missing');
    rmSync(join(folder, version, PARQUET));
    const result = await runMain(['evaluate', '--gold', '--release', folder, '--version', version, '--db', db]);
    expectBadFile(result, join(folder, version, PARQUET), 'missing');
  });

  it("names a Parquet file of REPOCOD's own form, and the command that reads it", async () => {
    const { folder, version, db } = release('evaluate-repocod-form');
    const file = join(folder, version, PARQUET);
    await writeRepocodForm(file);
    const result = await runMain(['evaluate', '--gold', '--release', folder, '--version', version, '--db', db]);
    expectBadFile(result, file, 'rows of another schema');
    expect(result.stderr).toContain('none of the 10 columns a release row has: instance_id, version');
    expect(result.stderr).toContain(
      "its 2 row(s) have repository, repo_id, target_module_path, function_name: REPOCOD's",
    );
    expect(result.stderr).toContain("`repocod reference add NAME --from FILE` reads REPOCOD's form");
  });
});

describe('repocod prompts on a broken release', () => {
  const prompts = (folder: string, version: string) =>
    runMain([
      'prompts',
      '--release',
      folder,
      '--version',
      version,
      '--setting',
      'baseline',
      '--out',
      `${folder}.jsonl`,
    ]);

  it('names a Parquet file whose footer is damaged', async () => {
    const { folder, version } = release('prompts-footer');
    const file = join(folder, version, PARQUET);
    damageParquetFooter(file);
    const result = await prompts(folder, version);
    expectBadFile(result, file, 'not a readable Parquet file');
    expect(result.stderr).toContain('its footer or its pages damaged; parquet-wasm: ');
  });

  it('names a card without front matter', async () => {
    const { folder, version } = release('prompts-card');
    writeFileSync(join(folder, 'README.md'), '# The demo release\n\nIts header is gone.\n');
    const result = await prompts(folder, version);
    expectBadFile(result, join(folder, 'README.md'), 'not a release card');
    expect(result.stderr).toContain('no YAML front matter');
  });
});

describe('repocod report --diff on a broken release', () => {
  it('names an empty Parquet file', async () => {
    const { folder, version, db } = release('diff-empty');
    cpSync(join(folder, version), join(folder, '9.9'), { recursive: true });
    writeFileSync(join(folder, '9.9', PARQUET), '');
    const result = await runMain(['report', '--diff', version, '9.9', '--release', folder, '--db', db]);
    expectBadFile(result, join(folder, '9.9', PARQUET), 'not a readable Parquet file');
    expect(result.stderr).toContain('(an empty file, 0 bytes);');
  });

  it('names a Parquet file of another schema, where its tasks were of repository "undefined"', async () => {
    const { folder, version, db } = release('diff-schema');
    cpSync(join(folder, version), join(folder, '9.9'), { recursive: true });
    await writeRepocodForm(join(folder, '9.9', PARQUET));
    const result = await runMain(['report', '--diff', version, '9.9', '--release', folder, '--db', db]);
    expectBadFile(result, join(folder, '9.9', PARQUET), 'rows of another schema');
    expect(result.stderr).not.toContain('undefined');
  });
});

describe('repocod reference add on a broken release', () => {
  it('names a .parquet file that is not Parquet at all', async () => {
    const file = join(temp.dir, 'rows.parquet');
    writeFileSync(file, 'repository,function_name\nflask,Flask.run\n');
    const result = await runMain(['reference', 'add', 'broken', '--from', file, '--db', `${file}.duckdb`]);
    expectBadFile(result, file, 'not a readable Parquet file');
    expect(result.stderr).toContain('not a Parquet file at all; parquet-wasm: Parquet error: Invalid Parquet file.');
    expect(result.stderr).toContain('download it again (`repocod reference add NAME --from hub:ORG/NAME`');
  });

  it("names a release folder's truncated default config", async () => {
    const { folder, db } = release('reference-truncated');
    const file = join(folder, 'data', PARQUET);
    truncateToHalf(file);
    const result = await runMain(['reference', 'add', 'broken', '--from', folder, '--db', db]);
    expectBadFile(result, file, 'not a readable Parquet file');
  });
});
