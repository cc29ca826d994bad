import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BadReleaseFileError, GET_RELEASE_AGAIN } from './bad-release-file-error.js';
import { readRelease } from './read-release.js';
import { PARQUET_NAME, writeRelease } from './release-folder.js';
import type { ReleaseRow } from './release-table.js';
import { releaseParquet, releaseTable } from './release-table.js';

const folder = mkdtempSync(join(tmpdir(), 'repocod-read-release-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

function row(id: string, overrides: Partial<ReleaseRow> = {}): ReleaseRow {
  return {
    instance_id: id,
    version: '1.0',
    gold_patches: { code: `gold ${id}`, test: '' },
    pre_patches: { code: `pre ${id}`, test: 'pre test' },
    repo: 'org/name',
    base_commit: 'abc',
    base_commit_timestamp: '2024-01-01T00:00:00Z',
    problem_statement: { code: 'write it', test: '' },
    environment_setup_commit: 'abc',
    FAIL_TO_PASS: ['t.py::a'],
    ...overrides,
  };
}

function write(release: string, version: string, rows: readonly ReleaseRow[]): void {
  mkdirSync(join(release, version), { recursive: true });
  writeFileSync(join(release, version, PARQUET_NAME), releaseParquet(releaseTable(rows)));
}

describe('readRelease', () => {
  const release = join(folder, 'ok');
  write(release, '1.0', [row('a'), row('b')]);
  write(release, 'data', [row('a')]);
  writeFileSync(
    join(release, '1.0', 'tasks.jsonl'),
    `${JSON.stringify({
      instance_id: 'a',
      repository: 'name',
      file: 'm.py',
      qualname: 'f',
      level: 'file-level',
      prompt_tokens: 10,
      solution_tokens: 20,
      cc: 3,
    })}\n`,
  );

  it("reads a version's tasks with their tasks.jsonl, and the default config's", () => {
    const read = readRelease(release, '1.0');
    expect(
      read.tasks.map((task) => [task.instanceId, task.preTest, task.failToPass, task.meta?.level ?? null]),
    ).toEqual([
      ['a', 'pre test', ['t.py::a'], 'file-level'],
      ['b', 'pre test', ['t.py::a'], null],
    ]);
    const fallback = readRelease(release);
    expect([fallback.version, fallback.tasks.length, fallback.tasks[0]?.meta?.complexity]).toEqual(['1.0', 1, 3]);
  });

  it("reads a task's body date and commit where tasks.jsonl has them, null where it has none", () => {
    const dated = join(folder, 'dated');
    write(dated, '2.0', [row('a', { version: '2.0' }), row('b', { version: '2.0' })]);
    const facts = { repository: 'name', file: 'm.py', qualname: 'f', level: 'file-level', prompt_tokens: 1 };
    writeFileSync(
      join(dated, '2.0', 'tasks.jsonl'),
      [
        { ...facts, instance_id: 'a', body_commit: 'c'.repeat(40), body_changed_at: '2025-07-01T10:00:00Z' },
        { ...facts, instance_id: 'b' },
      ]
        .map((line) => `${JSON.stringify(line)}\n`)
        .join(''),
    );
    expect(readRelease(dated, '2.0').tasks.map((task) => [task.meta?.bodyCommit, task.meta?.bodyChangedAt])).toEqual([
      ['c'.repeat(40), '2025-07-01T10:00:00Z'],
      [null, null],
    ]);
  });

  it('names the missing version and the versions there are', () => {
    expect(() => readRelease(release, '2.0')).toThrow(
      /2\.0: no test-\*\.parquet \(version 2\.0\); versions in .*: 1\.0/,
    );
  });

  it('names the row and field a task lacks', () => {
    const broken = join(folder, 'broken');
    write(broken, '1.0', [row('a'), row('b', { pre_patches: { code: '', test: '' } })]);
    expect(() => readRelease(broken, '1.0')).toThrow(/row 2: pre_patches\.code is missing/);
  });
});

/** A release as publish writes it (its card too), of two tasks per version. */
function published(name: string, versions: readonly string[]): string {
  const release = join(folder, name);
  for (const version of versions)
    writeRelease(release, version, [row('a', { version }), row('b', { version })], '# Release\n');
  return release;
}

/** The BadReleaseFileError that reading the release throws; anything else fails the test. */
function badRelease(release: string, version?: string): BadReleaseFileError {
  try {
    readRelease(release, version);
  } catch (error) {
    if (error instanceof BadReleaseFileError) return error;
    throw error;
  }
  throw new Error(`${release} was read`);
}

describe('readRelease of a release whose card and files disagree', () => {
  it('names a version there that the card does not list: a publish stopped before its card', () => {
    const release = published('unlisted', ['1.0', '1.1']);
    // The card of a release holding 1.0 only: 1.1's files are there, its card was never written.
    const earlier = published('unlisted-before', ['1.0']);
    copyFileSync(join(earlier, 'README.md'), join(release, 'README.md'));
    const error = badRelease(release, '1.1');
    expect([error.code, error.problem, error.file]).toEqual(['usage', 'missing-config', join(release, 'README.md')]);
    expect(error.message).toBe(
      [
        `${release}/README.md: no config for the version asked for (${release}/1.1 is there but the card lists 1.0,`,
        'as a publish stopped before writing its card leaves it); publish the version again',
        `(\`repocod publish --version 1.1 --out ${release}\` with the catalog that built it), or give a version the`,
        'card lists (--version 1.0)',
      ].join(' '),
    );
    expect(readRelease(release, '1.0').tasks).toHaveLength(2);
  });

  it('names a card without front matter', () => {
    const release = published('no-front-matter', ['1.0']);
    writeFileSync(join(release, 'README.md'), '# A release\n\nIts card lost its header.\n');
    const error = badRelease(release, '1.0');
    expect([error.problem, error.file]).toEqual(['bad-card', join(release, 'README.md')]);
    expect(error.message).toBe(
      [
        `${release}/README.md: not a release card (no YAML front matter, the --- … --- block a card starts with);`,
        GET_RELEASE_AGAIN,
      ].join(' '),
    );
  });

  it("names the Parquet file of a version the card lists that is missing, and the default config's", () => {
    const release = published('missing-file', ['1.0', '1.1']);
    rmSync(join(release, '1.0', PARQUET_NAME));
    rmSync(join(release, 'data'), { recursive: true });
    const error = badRelease(release, '1.0');
    expect([error.problem, error.file]).toEqual(['missing-file', join(release, '1.0', PARQUET_NAME)]);
    expect(error.message).toBe(
      [
        `${release}/1.0/${PARQUET_NAME}: missing (${release}/README.md lists version 1.0 but ${release}/1.0 has no`,
        `test-*.parquet); ${GET_RELEASE_AGAIN}`,
      ].join(' '),
    );
    expect(badRelease(release).detail).toBe(
      `${release}/README.md lists the default config but ${release}/data has no test-*.parquet`,
    );
  });
});
