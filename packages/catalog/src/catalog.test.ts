import { spawn } from 'node:child_process';
import { mkdir, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Catalog, openCatalog } from './catalog.js';
import type { FileExtraction } from './file-extraction.js';
import { formatTable } from './format-table.js';
import { makeTempDir, okExtraction, syntheticFunction } from './testing/test-support.js';

const packageDir = dirname(dirname(fileURLToPath(import.meta.url)));

/**
 * Runs a script in a separate Node process (DuckDB's file lock is per process), with
 * @duckdb/node-api importable. The script may print "ready" and then wait for its stdin to close.
 */
function child(script: string): { output: Promise<string>; ready: Promise<void>; release: () => void } {
  const proc = spawn(process.execPath, ['--input-type=module', '-e', script], { cwd: packageDir });
  let stdout = '';
  let stderr = '';
  let markReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => {
    markReady = resolve;
  });
  proc.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    if (stdout.includes('ready')) markReady();
  });
  proc.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const output = new Promise<string>((resolve, reject) => {
    proc.on('error', reject);
    proc.on('close', (code) =>
      code === 0 ? resolve(stdout.trim()) : reject(new Error(`child exited ${code}: ${stderr}`)),
    );
  });
  output.catch(() => markReady());
  return { output, ready, release: () => proc.stdin.end() };
}

const openInChild = (file: string): string => `
  import { DuckDBInstance } from '@duckdb/node-api';
  try {
    const instance = await DuckDBInstance.create(${JSON.stringify(file)});
    const connection = await instance.connect();
    const reader = await connection.runAndReadAll('SELECT count(*) FROM functions');
    console.log('opened, functions:', String(reader.getRows()[0][0]));
    connection.closeSync();
    instance.closeSync();
  } catch (error) {
    console.log('failed:', error.message);
  }
`;

describe('openCatalog', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    ({ dir, cleanup } = await makeTempDir());
  });
  afterEach(() => cleanup());

  it('creates the folder and the file, and migrates once', async () => {
    const path = join(dir, 'nested', 'deeper', 'catalog.duckdb');
    const catalog = await openCatalog(path);
    expect((await stat(path)).isFile()).toBe(true);
    await catalog.close();

    const again = await openCatalog(path);
    expect((await again.query('SELECT version, name FROM schema_migrations')).rows).toEqual([
      [1, 'repositories, files and functions'],
      [2, 'runs and test results'],
      [3, 'mining: baseline, coverage map and relevant tests'],
      [4, 'tasks and selections'],
      [5, 'validations'],
      [6, 'validations: tests passing without the body, how the gold check was answered'],
      [7, 'stage times'],
      [8, 'evaluations'],
      [9, 'context-level modes'],
      [10, 'reference task lists'],
      [11, 'instance ids relative to the package root'],
      [12, 'when each function body last changed'],
      [13, 'what the jobs of each phase cost'],
    ]);
    await again.close();
  });

  it('works in memory', async () => {
    const catalog = await openCatalog(':memory:');
    await catalog.replaceFiles('r', [okExtraction('a.py', 3)]);
    expect(await catalog.functions('r')).toHaveLength(3);
    await catalog.close();
  });

  it('refuses a path it cannot write, naming it', async () => {
    await expect(openCatalog('/proc/repocod/catalog.duckdb')).rejects.toMatchObject({
      code: 'catalog-unwritable',
      message: expect.stringContaining('/proc/repocod'),
    });
    await expect(openCatalog('/proc/catalog.duckdb')).rejects.toMatchObject({
      code: 'catalog-unwritable',
      message: expect.stringContaining('/proc/catalog.duckdb'),
    });
  });

  it('refuses a path under a file', async () => {
    const file = join(dir, 'plain.txt');
    await writeFile(file, 'text');
    await expect(openCatalog(join(file, 'catalog.duckdb'))).rejects.toMatchObject({
      code: 'catalog-unwritable',
      message: expect.stringMatching(/plain\.txt.*a part of the path is a file/),
    });
  });

  it('refuses a directory as the catalog file', async () => {
    const folder = join(dir, 'adir');
    await mkdir(folder);
    await expect(openCatalog(folder)).rejects.toMatchObject({
      code: 'catalog-unwritable',
      message: expect.stringContaining(`${folder} is a directory`),
    });
  });

  it('refuses a file that is not a DuckDB database, naming it', async () => {
    const path = join(dir, 'notes.duckdb');
    await writeFile(path, 'these are my notes\n'.repeat(500));
    await expect(openCatalog(path)).rejects.toMatchObject({
      code: 'catalog-error',
      message: expect.stringContaining(`${path} exists but is not a DuckDB database`),
    });
    const empty = join(dir, 'empty.duckdb');
    await writeFile(empty, '');
    await expect(openCatalog(empty)).rejects.toMatchObject({ code: 'catalog-error' });
  });

  it('refuses to open the same file twice in one process, and allows it after close', async () => {
    const path = join(dir, 'c.duckdb');
    const first = await openCatalog(path);
    await expect(openCatalog(join(dir, '.', 'c.duckdb'))).rejects.toMatchObject({
      code: 'catalog-unwritable',
      message: expect.stringContaining('already open in this process'),
    });
    await first.close();
    const second = await openCatalog(path);
    await second.close();
  });

  it('releases the file on close so that another process can open it', { timeout: 60_000 }, async () => {
    const path = join(dir, 'shared.duckdb');
    const catalog = await openCatalog(path);
    await catalog.replaceFiles('r', [okExtraction('a.py', 4)]);

    expect(await child(openInChild(path)).output).toMatch(/^failed: .*lock/);
    await catalog.close();
    expect(await child(openInChild(path)).output).toBe('opened, functions: 4');
  });

  it('says which process holds the catalog when another one has it open', async () => {
    const path = join(dir, 'held.duckdb');
    await (await openCatalog(path)).close();
    const holder = child(`
      import { DuckDBInstance } from '@duckdb/node-api';
      const instance = await DuckDBInstance.create(${JSON.stringify(path)});
      console.log('ready');
      process.stdin.resume();
      process.stdin.on('end', () => { instance.closeSync(); process.exit(0); });
    `);
    await holder.ready;
    try {
      await expect(openCatalog(path)).rejects.toMatchObject({
        code: 'catalog-unwritable',
        message: expect.stringMatching(/held\.duckdb is in use by process \d+/),
      });
    } finally {
      holder.release();
      await holder.output;
    }
    await (await openCatalog(path)).close();
  });
});

describe('Catalog', () => {
  let catalog: Catalog;
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    ({ dir, cleanup } = await makeTempDir());
    catalog = await openCatalog(join(dir, '.repocod', 'catalog.duckdb'));
  });
  afterEach(async () => {
    await catalog.close();
    await cleanup();
  });

  it('records and updates repositories', async () => {
    await catalog.upsertRepository('flask', '/src/flask');
    await catalog.upsertRepository('sympy', '/src/sympy');
    await catalog.upsertRepository('flask', '/elsewhere/flask');
    const repositories = await catalog.repositories();
    expect(repositories.map(({ name, root }) => [name, root])).toEqual([
      ['flask', '/elsewhere/flask'],
      ['sympy', '/src/sympy'],
    ]);
    expect(Math.abs(repositories[0]!.updatedAt.getTime() - Date.now())).toBeLessThan(60_000);
  });

  it('round-trips known files', async () => {
    await catalog.replaceFiles('r', [
      okExtraction('a.py', 1, 'aaa'),
      { ...okExtraction('b.py', 0, 'bbb'), extractorFingerprint: 'v2' },
    ]);
    await catalog.replaceFiles('other', [okExtraction('a.py', 1, 'zzz')]);
    expect(await catalog.knownFiles('r')).toEqual(
      new Map([
        ['a.py', { contentHash: 'aaa', extractorFingerprint: 'extractor-v1' }],
        ['b.py', { contentHash: 'bbb', extractorFingerprint: 'v2' }],
      ]),
    );
    expect(await catalog.knownFiles('nobody')).toEqual(new Map());
  });

  it('stores functions that read back as they were given', async () => {
    const extraction = okExtraction('pkg/a.py', 3);
    await catalog.replaceFiles('r', [extraction]);
    const stored = await catalog.functions('r');
    expect(stored).toEqual(
      extraction.functions.map((fn) => ({
        ...fn,
        repository: 'r',
        contentHash: 'hash-of-pkg/a.py',
        functionId: `r:pkg/a.py:${fn.qualname}:${fn.signatureSpan.start}`,
      })),
    );
  });

  it('keeps two definitions of one qualname in a file apart', async () => {
    const first = syntheticFunction('a.py', 0, { qualname: 'f', name: 'f' });
    const second = syntheticFunction('a.py', 1, { qualname: 'f', name: 'f' });
    await catalog.replaceFiles('r', [{ ...okExtraction('a.py', 0), functions: [first, second] }]);
    expect((await catalog.functions('r')).map((fn) => fn.functionId)).toEqual(['r:a.py:f:3', 'r:a.py:f:21']);
  });

  it('replaces the rows of the files given and leaves the others alone', async () => {
    await catalog.replaceFiles('r', [okExtraction('a.py', 3), okExtraction('b.py', 2)]);
    await catalog.replaceFiles('r', [okExtraction('a.py', 1, 'new-hash')]);

    const functions = await catalog.functions('r');
    expect(functions.map((fn) => [fn.file, fn.contentHash])).toEqual([
      ['a.py', 'new-hash'],
      ['b.py', 'hash-of-b.py'],
      ['b.py', 'hash-of-b.py'],
    ]);
    expect((await catalog.query('SELECT file, function_count FROM files ORDER BY file')).rows).toEqual([
      ['a.py', 1],
      ['b.py', 2],
    ]);
  });

  it('stores file issues and partial results', async () => {
    const broken: FileExtraction = {
      ...okExtraction('bad.py', 1),
      status: 'syntax-error',
      issue: { file: 'bad.py', kind: 'syntax-error', lines: [12], message: 'invalid syntax' },
    };
    await catalog.replaceFiles('r', [broken]);
    const [file] = await catalog.files('r');
    expect(file).toMatchObject({ file: 'bad.py', status: 'syntax-error', issue: broken.issue, functionCount: 1 });
    expect(await catalog.functions('r')).toHaveLength(1);
  });

  it('is all or nothing: a failing row leaves the previous rows in place', async () => {
    await catalog.replaceFiles('r', [okExtraction('a.py', 2, 'old'), okExtraction('b.py', 1, 'old')]);
    const before = await catalog.functions('r');

    // Two functions with one key: the primary key rejects the second, after other rows went in.
    const duplicate = syntheticFunction('c.py', 0);
    await expect(
      catalog.replaceFiles('r', [
        okExtraction('a.py', 5, 'new'),
        { ...okExtraction('c.py', 0, 'new'), functions: [duplicate, duplicate] },
      ]),
    ).rejects.toMatchObject({
      code: 'catalog-error',
      message: expect.stringMatching(/storing 2 file\(s\) of r failed: .*(PRIMARY KEY|constraint)/i),
    });

    expect(await catalog.functions('r')).toEqual(before);
    expect([...(await catalog.knownFiles('r')).keys()].sort()).toEqual(['a.py', 'b.py']);
    // The connection is usable again after the rollback.
    await catalog.replaceFiles('r', [okExtraction('c.py', 1)]);
    expect(await catalog.functions('r')).toHaveLength(4);
  });

  it('refuses inconsistent extractions before writing anything', async () => {
    await expect(
      catalog.replaceFiles('r', [
        okExtraction('a.py', 1),
        { ...okExtraction('b.py', 0), functions: [syntheticFunction('a.py', 9)] },
      ]),
    ).rejects.toMatchObject({ code: 'catalog-error', message: expect.stringContaining('nothing was written') });
    expect(await catalog.knownFiles('r')).toEqual(new Map());
  });

  it('removes files that disappeared, with their functions', async () => {
    await catalog.replaceFiles('r', [okExtraction('a.py', 2), okExtraction('b.py', 2), okExtraction('c.py', 1)]);
    await catalog.replaceFiles('s', [okExtraction('a.py', 1)]);
    await catalog.removeFiles('r', ['a.py', 'c.py', 'never-there.py']);
    await catalog.removeFiles('r', []);
    expect([...(await catalog.knownFiles('r')).keys()]).toEqual(['b.py']);
    expect((await catalog.functions('r')).map((fn) => fn.file)).toEqual(['b.py', 'b.py']);
    expect(await catalog.functions('s')).toHaveLength(1);
  });

  it('filters candidates', async () => {
    await catalog.replaceFiles('r', [okExtraction('a.py', 5)]);
    const candidates = await catalog.functions('r', { candidatesOnly: true });
    expect(candidates.map((fn) => fn.name)).toEqual(['method_0', 'method_2', 'method_4']);
    expect(candidates.every((fn) => fn.isCandidate)).toBe(true);
  });

  it('stores and reads back thousands of functions in one call', async () => {
    const files = Array.from({ length: 100 }, (_, i) =>
      okExtraction(`pkg/module_${String(i).padStart(3, '0')}.py`, 50),
    );
    await catalog.replaceFiles('big', files);
    const stored = await catalog.functions('big');
    expect(stored).toHaveLength(5000);
    expect(stored[4999]).toMatchObject({ file: 'pkg/module_099.py', qualname: 'Widget.method_49' });
    expect(stored[123]).toEqual({
      ...files[2]!.functions[23]!,
      repository: 'big',
      contentHash: 'hash-of-pkg/module_002.py',
      functionId: 'big:pkg/module_002.py:Widget.method_23:461',
    });
    // A rerun over the same files replaces rather than duplicates.
    await catalog.replaceFiles('big', files);
    expect((await catalog.query("SELECT count(*) FROM functions WHERE repository = 'big'")).rows).toEqual([[5000]]);
  });

  it('serialises overlapping calls', async () => {
    await Promise.all(Array.from({ length: 8 }, (_, i) => catalog.replaceFiles('r', [okExtraction(`f${i}.py`, 3)])));
    expect(await catalog.functions('r')).toHaveLength(24);
  });

  it('answers SQL with printable values that format as a table', async () => {
    await catalog.upsertRepository('r', '/src/r');
    await catalog.replaceFiles('r', [okExtraction('a.py', 2)]);
    const result = await catalog.query(
      'SELECT name, cc, decorators, halstead_volume, prompt FROM functions ORDER BY sig_start',
    );
    expect(result).toEqual({
      columns: ['name', 'cc', 'decorators', 'halstead_volume', 'prompt'],
      rows: [
        ['method_0', 1, '["staticmethod","functools.cache"]', 12.5, syntheticFunction('a.py', 0).slices.prompt],
        ['method_1', 2, '[]', 12.5 + 1 / 3, syntheticFunction('a.py', 1).slices.prompt],
      ],
    });
    expect(formatTable(result, { maxCellWidth: 20 })).toBe(
      [
        'name     | cc | decorators           |    halstead_volume | prompt',
        '---------+----+----------------------+--------------------+---------------------',
        'method_0 |  1 | ["staticmethod","fu… |               12.5 |     def method_0(se…',
        'method_1 |  2 | []                   | 12.833333333333334 |     def method_1(se…',
        '(2 rows)',
        '',
      ].join('\n'),
    );
    const [row] = (await catalog.query('SELECT updated_at, count(*) AS n FROM repositories GROUP BY ALL')).rows;
    expect(row?.[0]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+Z$/);
    expect(row?.[1]).toBe(1);
  });

  it("reports a SQL error with DuckDB's message", async () => {
    await expect(catalog.query('SELECT * FROM no_such_table')).rejects.toMatchObject({
      code: 'catalog-error',
      message: expect.stringContaining('Table with name no_such_table does not exist'),
    });
    await expect(catalog.query('SELEC 1')).rejects.toMatchObject({
      code: 'catalog-error',
      message: expect.stringContaining('syntax error'),
    });
    expect((await catalog.query('SELECT 1 AS one')).rows).toEqual([[1]]);
  });

  it('refuses calls after close, and closing twice is harmless', async () => {
    await catalog.close();
    await catalog.close();
    await expect(catalog.functions('r')).rejects.toMatchObject({
      code: 'catalog-error',
      message: expect.stringContaining('is closed'),
    });
    catalog = await openCatalog(join(dir, '.repocod', 'catalog.duckdb'));
  });
});

describe('functionStats', () => {
  it('counts functions and candidates and gives mean and max complexity of one repository', async () => {
    const catalog = await openCatalog(':memory:');
    try {
      const functions = [1, 2, 6].map((cyclomatic, index) =>
        syntheticFunction('a.py', index, {
          metrics: { ...syntheticFunction('a.py', index).metrics, cyclomatic },
          isCandidate: index === 0,
        }),
      );
      await catalog.replaceFiles("o'repo", [{ ...okExtraction('a.py', 0), functions }]);
      await catalog.replaceFiles('other', [okExtraction('b.py', 4)]);
      expect(await catalog.functionStats("o'repo")).toEqual({
        functions: 3,
        candidates: 1,
        meanComplexity: 3,
        maxComplexity: 6,
      });
      expect(await catalog.functionStats('nothing')).toEqual({
        functions: 0,
        candidates: 0,
        meanComplexity: 0,
        maxComplexity: 0,
      });
    } finally {
      await catalog.close();
    }
  });
});
