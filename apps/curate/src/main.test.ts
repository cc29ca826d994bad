import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { USAGE, cliReference, main } from './main.js';
import { PROJECT_ROOT } from './project-root.js';
import { type BufferIO, DEMO_ROOT, bufferIO, makeTempDir } from './testing/test-support.js';

/** What `repocod extract datasets/demo` prints on a fresh catalog (pinned). */
const demoSummary = (db: string, parsed = 19, unchanged = 0): string =>
  [
    `extracted demo (${DEMO_ROOT}) into ${db}`,
    `  files       19 (${parsed} parsed, ${unchanged} unchanged, 0 removed)`,
    '  functions   278 (52 candidates)',
    '  complexity  mean 2.55, max 13',
    '  problems    none',
    '',
  ].join('\n');

const JSONL_FIELDS = [
  'file',
  'qualname',
  'start_line',
  'end_line',
  'docstring_lines',
  'cc',
  'prompt_tokens',
  'solution_tokens',
  'prompt_lines',
  'solution_lines',
  'is_candidate',
] as const;

let dir: string;
let cleanup: () => void;
let db: string;
beforeEach(() => {
  ({ dir, cleanup } = makeTempDir());
  db = join(dir, 'catalog.duckdb');
});
afterEach(() => cleanup());

async function run(argv: readonly string[], interactive = false): Promise<{ code: number; io: BufferIO }> {
  const io = bufferIO(interactive);
  const code = await main(argv, io);
  return { code, io };
}

describe('repocod extract', () => {
  it('prints the summary of the demo and exits 0', async () => {
    const { code, io } = await run(['extract', DEMO_ROOT, '--db', db]);
    expect(io.stderr()).toBe('');
    expect(code).toBe(0);
    expect(io.stdout()).toBe(demoSummary(db));
    expect(existsSync(db)).toBe(true);

    // The catalog was closed: a second run in this process can open it, and skips every file.
    const again = await run(['extract', DEMO_ROOT, `--db=${db}`]);
    expect(again.code).toBe(0);
    expect(again.io.stdout()).toBe(demoSummary(db, 0, 19));
  });

  it('prints progress on stderr when interactive, the summary on stdout', async () => {
    const { code, io } = await run(['extract', DEMO_ROOT, '--db', db], true);
    expect(code).toBe(0);
    expect(io.stdout()).toBe(demoSummary(db));
    expect(io.stderr()).toBe('demo: 19 files, 19 to extract, 0 removed\n\r  parsed 19/19\n');
  });

  it('--jsonl prints one JSON object per function on stdout and the summary on stderr', async () => {
    const { code, io } = await run(['extract', DEMO_ROOT, '--db', db, '--jsonl']);
    expect(code).toBe(0);
    expect(io.stderr()).toBe(demoSummary(db));
    expect(io.stdout().endsWith('\n')).toBe(true);
    const lines = io.stdout().trimEnd().split('\n');
    expect(lines).toHaveLength(278);

    const records = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    for (const record of records) {
      expect(Object.keys(record).slice(0, JSONL_FIELDS.length)).toEqual(JSONL_FIELDS);
      for (const field of JSONL_FIELDS.slice(2, -1)) expect(Number.isInteger(record[field])).toBe(true);
      expect(typeof record.file).toBe('string');
      expect(typeof record.qualname).toBe('string');
      expect(typeof record.is_candidate).toBe('boolean');
      expect(record.end_line).toBeGreaterThanOrEqual(record.start_line as number);
      expect(record.cc).toBeGreaterThanOrEqual(1);
      expect(record.prompt_lines).toBeGreaterThanOrEqual(1);
    }
    const candidates = records.filter((record) => record.is_candidate === true);
    expect(candidates).toHaveLength(52);
    expect(candidates.every((record) => (record.docstring_lines as number) > 10)).toBe(true);
    expect(candidates.every((record) => String(record.file).startsWith('inventory/'))).toBe(true);
    expect(
      records.filter((record) => String(record.file).startsWith('tests/')).every((r) => r.is_test_code === true),
    ).toBe(true);
  });

  it('uses --name for the repository and --config for the candidate filter', async () => {
    const config = join(dir, 'repocod.json');
    writeFileSync(config, JSON.stringify({ candidateFilter: { minDocstringLinesExclusive: 20 } }));
    const { code, io } = await run([
      'extract',
      DEMO_ROOT,
      '--db',
      db,
      '--name',
      'inv',
      '--config',
      config,
      '--workers',
      '0',
    ]);
    expect(code).toBe(0);
    expect(io.stdout()).toContain(`extracted inv (${DEMO_ROOT})`);
    expect(io.stdout()).toContain('  functions   278 (38 candidates)\n');
  });

  it('exits 1 naming a config file that is wrong', async () => {
    const config = join(dir, 'repocod.json');
    writeFileSync(config, '{"candidateFilter": {"minDocstringLinesExclusive": "ten"}}');
    const { code, io } = await run(['extract', DEMO_ROOT, '--db', db, '--config', config]);
    expect(code).toBe(1);
    expect(io.stderr()).toContain(config);
    expect(io.stderr()).toContain('minDocstringLinesExclusive');
    expect(existsSync(db)).toBe(false);
  });

  it('exits 1 with a message naming a repository path that does not exist, creating no catalog', async () => {
    const missing = join(dir, 'no-such-repo');
    const { code, io } = await run(['extract', missing, '--db', db]);
    expect(code).toBe(1);
    expect(io.stdout()).toBe('');
    expect(io.stderr()).toBe(`error: ${missing}: no such file or directory; give the path of a repository checkout\n`);
    expect(existsSync(db)).toBe(false);
  });

  it('exits 1 when the repository path is a file', async () => {
    const file = join(dir, 'setup.py');
    writeFileSync(file, 'x = 1\n');
    const { code, io } = await run(['extract', file, '--db', db]);
    expect(code).toBe(1);
    expect(io.stderr()).toContain(`${file}: not a directory`);
  });

  it('exits 1 with a message naming a catalog path that cannot be created', async () => {
    const { code, io } = await run(['extract', DEMO_ROOT, '--db', '/proc/repocod/x.duckdb']);
    expect(code).toBe(1);
    expect(io.stdout()).toBe('');
    expect(io.stderr()).toMatch(/^error: .*\/proc\/repocod\/x\.duckdb/);
    expect(io.stderr()).not.toContain('internal error');
  });

  it('exits 1 when the catalog path is a folder', async () => {
    const folder = join(dir, 'folder.duckdb');
    mkdirSync(folder);
    const { code, io } = await run(['extract', DEMO_ROOT, '--db', folder]);
    expect(code).toBe(1);
    expect(io.stderr()).toContain(`${folder} is a directory`);
  });

  it('exits 2 on --workers that is not a whole number, before touching the catalog', async () => {
    for (const workers of ['abc', '-1', '1.5']) {
      const { code, io } = await run(['extract', DEMO_ROOT, '--db', db, '--workers', workers]);
      expect(code).toBe(2);
      expect(io.stderr()).toBe(`error: --workers must be a whole number >= 0 (got ${workers})\n`);
    }
    expect(existsSync(db)).toBe(false);
  });

  it('exits 2 with its usage when the path is missing or doubled', async () => {
    for (const argv of [['extract'], ['extract', DEMO_ROOT, DEMO_ROOT]]) {
      const { code, io } = await run([...argv, '--db', db]);
      expect(code).toBe(2);
      expect(io.stderr()).toContain('usage: repocod extract <repo-path>');
    }
  });
});

describe('repocod sql', () => {
  it('prints a table with the count of functions', async () => {
    expect((await run(['extract', DEMO_ROOT, '--db', db])).code).toBe(0);
    const { code, io } = await run(['sql', 'select count(*) as n from functions', '--db', db]);
    expect(io.stderr()).toBe('');
    expect(code).toBe(0);
    expect(io.stdout()).toBe('  n\n---\n278\n(1 row)\n\n');
  });

  it('exits 1 and creates nothing when the catalog does not exist', async () => {
    const { code, io } = await run(['sql', 'select 1', '--db', db]);
    expect(code).toBe(1);
    expect(io.stderr()).toContain(`${db}: no catalog there`);
    expect(existsSync(db)).toBe(false);
    expect(existsSync(`${db}.wal`)).toBe(false);
  });

  it("exits 1 with DuckDB's message on bad SQL, and leaves the catalog usable", async () => {
    expect((await run(['extract', DEMO_ROOT, '--db', db])).code).toBe(0);
    const syntax = await run(['sql', 'selec 1', '--db', db]);
    expect(syntax.code).toBe(1);
    expect(syntax.io.stderr()).toContain(db);
    expect(syntax.io.stderr()).toContain('Parser Error: syntax error at or near "selec"');

    const table = await run(['sql', 'select * from no_such_table', '--db', db]);
    expect(table.code).toBe(1);
    expect(table.io.stderr()).toContain('Catalog Error');
    expect(table.io.stderr()).toContain('no_such_table');

    const after = await run(['sql', 'select count(*) from files', '--db', db]);
    expect(after.code).toBe(0);
    expect(after.io.stdout()).toContain('19');
  });

  it('exits 2 on a bad --width or a missing query', async () => {
    expect((await run(['sql', 'select 1', '--db', ':memory:', '--width', '2'])).code).toBe(2);
    expect((await run(['sql', '--db', db])).code).toBe(2);
    expect((await run(['sql', 'select 1', '--db'])).code).toBe(2);
  });

  it('runs on an in-memory catalog', async () => {
    const { code, io } = await run(['sql', 'select 40 + 2 as answer', '--db', ':memory:']);
    expect(code).toBe(0);
    expect(io.stdout()).toContain('42');
  });
});

describe('repocod with no or an unknown command', () => {
  it('prints the usage on stderr and exits 2 with no command', async () => {
    const { code, io } = await run([]);
    expect(code).toBe(2);
    expect(io.stderr()).toBe(USAGE);
    expect(io.stdout()).toBe('');
  });

  it('prints the usage and exits 0 on help', async () => {
    const { code, io } = await run(['help']);
    expect(code).toBe(0);
    expect(io.stdout()).toBe(USAGE);
  });

  it('exits 2 on an unknown command, naming it', async () => {
    const { code, io } = await run(['extrakt', DEMO_ROOT]);
    expect(code).toBe(2);
    expect(io.stdout()).toBe('');
    expect(io.stderr().startsWith('error: unknown command "extrakt"\n')).toBe(true);
  });

  it('exits 2 on a flag given a value', async () => {
    const { code, io } = await run(['extract', DEMO_ROOT, '--jsonl=yes']);
    expect(code).toBe(2);
    expect(io.stderr()).toBe('error: option --jsonl takes no value\n');
  });
});

describe('main: options', () => {
  it('refuses an option the command does not know, naming it', async () => {
    const io = bufferIO();
    expect(await main(['extract', DEMO_ROOT, '--jsnl'], io)).toBe(2);
    expect(io.stderr()).toContain('unknown option --jsnl');
    const sql = bufferIO();
    expect(await main(['sql', 'select 1', '--jsonl'], sql)).toBe(2);
    expect(sql.stderr()).toContain('unknown option --jsonl');
  });
});

describe('repocod --help', () => {
  it("prints the command's own usage on stdout and exits 0, the whole usage without a command", async () => {
    const select = await run(['select', '--help']);
    expect(select.code).toBe(0);
    expect(select.io.stdout()).toMatch(/^usage: repocod select \[--spec FILE\]/);
    expect(select.io.stderr()).toBe('');
    const worker = await run(['worker', '-h']);
    expect(worker.io.stdout()).toMatch(/^usage: repocod worker/);
    expect(worker.io.stdout()).toContain('How run, mine, tasks, validate, evaluate and curate run their pytest jobs');
    const whole = await run(['--help']);
    expect(whole.code).toBe(0);
    expect(whole.io.stdout()).toBe(USAGE);
  });
});

describe('repocod help --markdown', () => {
  it('prints the command reference, and docs/cli.md is that reference as the tool prints it today', async () => {
    const printed = await run(['help', '--markdown']);
    expect(printed.code).toBe(0);
    expect(printed.io.stdout()).toBe(cliReference());
    expect(printed.io.stdout()).toContain('## repocod mine\n\n```text\nusage: repocod mine <repository>');
    const committed = readFileSync(join(PROJECT_ROOT, 'docs/cli.md'), 'utf8');
    expect(committed, 'docs/cli.md is stale: pnpm repocod help --markdown > docs/cli.md').toBe(cliReference());
  });
});
