import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LiteRecord, RecordMeta } from '@repocod/pipeline';
import { openCatalog } from '@repocod/pipeline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from './main.js';
import { PROJECT_ROOT } from './project-root.js';
import { bufferIO, makeTempDir } from './testing/test-support.js';
import { demoFixture } from './testing/demo-fixture.js';

const LINE_KEYS = [
  ...['instance_id', 'repository', 'file', 'qualname', 'function_name', 'level', 'level_mode', 'levels'],
  ...['prompt_lines', 'solution_lines'],
  ...['prompt_tokens', 'solution_tokens', 'cc', 'fail_to_pass', 'selected', 'valid'],
];

const savedState = process.env.REPOCOD_STATE;
const temp = makeTempDir();
const db = join(temp.dir, 'catalog.duckdb');
const fromCurate = join(temp.dir, 'records-from-curate');
let curateOut = '';

/**
 * `repocod record` on the demo after a real `repocod curate --yes --record` (prepare, extract, mine,
 * tasks, select, validate, publish): the records read back, against the catalog they come from.
 */
beforeAll(async () => {
  process.env.REPOCOD_STATE = join(temp.dir, 'state');
  // The demo's whole flow ran once for every test of this package (the screens' fixture): curate on a copy
  // of its catalog answers every stage from there, in a state folder of this file's own, and writes records.
  copyFileSync(demoFixture().catalogPath, db);
  const io = bufferIO();
  const args = ['curate', '--yes', '--repo', 'demo', '--db', db, '--out', join(temp.dir, 'release')];
  const code = await main([...args, '--record', '--record-out', fromCurate], io);
  curateOut = io.stdout();
  expect(code, `${io.stdout()}\n${io.stderr()}`).toBe(0);
}, 900_000);

afterAll(() => {
  if (savedState === undefined) delete process.env.REPOCOD_STATE;
  else process.env.REPOCOD_STATE = savedState;
  temp.cleanup();
}, 120_000);

async function record(out: string, ...extra: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const io = bufferIO();
  const code = await main(['record', '--repo', 'demo', '--db', db, '--out', out, ...extra], io);
  return { code, stdout: io.stdout(), stderr: io.stderr() };
}

describe('repocod record on the demo', () => {
  it('writes the same bytes twice, and the same as curate --record', { timeout: 60_000 }, async () => {
    const first = join(temp.dir, 'first');
    const second = join(temp.dir, 'second');
    const run = await record(first);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^demo: 52 task\(s\) → .*demo\.jsonl, .*demo\.meta\.json\n$/);
    expect((await record(second)).code).toBe(0);
    for (const file of ['demo.jsonl', 'demo.meta.json']) {
      const bytes = readFileSync(join(first, file));
      expect(bytes.equals(readFileSync(join(second, file))), file).toBe(true);
      expect(bytes.equals(readFileSync(join(fromCurate, file))), file).toBe(true);
    }
    expect(curateOut).toMatch(/\nrecords\n {2}demo: 52 task\(s\) → /);
  });

  it('has a line per task by id, with the catalog fields and valid per validation', { timeout: 60_000 }, async () => {
    const out = join(temp.dir, 'lines');
    expect((await record(out)).code).toBe(0);
    const text = readFileSync(join(out, 'demo.jsonl'), 'utf8');
    expect(text.endsWith('\n')).toBe(true);
    const lines = text
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toHaveLength(52);
    const ids = lines.map((line) => line.instance_id as string);
    expect(ids).toEqual([...ids].sort());
    for (const line of lines) {
      expect(Object.keys(line)).toEqual(LINE_KEYS);
      expect(line.repository).toBe('demo');
      expect(['self-contained', 'file-level', 'repo-level']).toContain(line.level);
      for (const key of ['prompt_lines', 'solution_lines', 'prompt_tokens', 'solution_tokens', 'cc']) {
        const value = line[key];
        const whole = typeof value === 'number' && Number.isInteger(value) && value >= 1;
        expect(whole, `${String(line.instance_id)} ${key}`).toBe(true);
      }
      const tests = line.fail_to_pass as string[];
      expect(tests.length).toBeGreaterThan(0);
      expect(tests).toEqual([...tests].sort());
      expect(tests.every((test) => test.startsWith('tests/') && test.includes('::'))).toBe(true);
      expect([true, false, null]).toContain(line.valid);
      // The demo's selection picks every task.
      expect(line.selected).toBe(true);
    }

    const catalog = await openCatalog(db);
    try {
      const verdicts = await catalog.query('SELECT instance_id, status FROM validations ORDER BY instance_id');
      const status = new Map(verdicts.rows.map((row) => [String(row[0]), String(row[1])]));
      const columns = ['instance_id', 'file', 'qualname', 'cc', 'prompt_tokens'];
      const tasks = await catalog.query(`SELECT ${columns.join(', ')} FROM tasks ORDER BY instance_id`);
      const fromCatalog = tasks.rows.map((row) => [row[0], row[1], row[2], Number(row[3]), Number(row[4])]);
      expect(lines.map((line) => columns.map((key) => line[key]))).toEqual(fromCatalog);
      for (const line of lines) {
        const verdict = status.get(line.instance_id as string);
        const expected = verdict === 'passed' ? true : verdict === 'failed' ? false : null;
        expect(line.valid, String(line.instance_id)).toBe(expected);
      }
    } finally {
      await catalog.close();
    }
    // retry's tests fail at collection without its body (the package does not import): valid all the same.
    expect(lines.find((line) => line.instance_id === 'demo-inventory.util.retry')?.valid).toBe(true);
    expect(lines.filter((line) => line.valid === true).length).toBeGreaterThan(0);
    expect(lines.filter((line) => line.valid === false).length).toBeGreaterThan(0);
  });

  it('has a header: environment, counts, stage times, and no path of this machine', { timeout: 60_000 }, async () => {
    const out = join(temp.dir, 'meta');
    expect((await record(out)).code).toBe(0);
    const text = readFileSync(join(out, 'demo.meta.json'), 'utf8');
    expect(text).not.toContain(temp.dir);
    expect(text).not.toContain(PROJECT_ROOT);
    const meta = JSON.parse(text) as RecordMeta;
    expect(Object.keys(meta)).toEqual([
      ...['repository', 'base_commit', 'base_commit_timestamp', 'stands_in_for', 'tool_version', 'validated_with'],
      'made_with',
      'selection',
      ...['environment', 'baseline', 'candidates', 'mined', 'tasks', 'validated', 'stage_seconds', 'runner'],
    ]);
    expect(meta.base_commit).toMatch(/^[0-9a-f]{40}$/);
    // The demo's manifest pins no commit: its snapshot stands in for nothing.
    expect(meta.stands_in_for).toBeNull();
    expect(meta.tool_version).toMatch(/^repocod-kit \d+\.\d+\.\d+$/);
    expect(meta.validated_with).toMatch(/^repocod-kit /);
    // The tool's commit; the demo has no committed checkpoint.
    expect(meta.made_with).toEqual({
      tool: expect.stringMatching(/^repocod-kit \S+ \(git [0-9a-f]{12}/),
      checkpoint: null,
    });
    expect(meta.selection).toMatch(/^[0-9a-f]{16}$/);
    const environment = meta.environment;
    expect(environment.key).toMatch(/^[0-9a-f]{64}$/);
    expect(['uv', 'pip']).toContain(environment.installer);
    expect(environment.python_version).toMatch(/^3\.\d+\.\d+/);
    const packages = environment.packages ?? [];
    expect(packages).toEqual([...packages].sort());
    expect(packages.some((name) => /^pytest==\d/.test(name))).toBe(true);
    const baseline = meta.baseline ?? { runs: 0, tests: 0, passing: -1, flaky: 0, not_passing: 0, network_bound: [] };
    expect(baseline.runs).toBe(3);
    // The demo's suite needs no network: no test fails for want of one.
    expect(baseline.network_bound).toEqual([]);
    expect(baseline.tests).toBeGreaterThanOrEqual(150);
    expect(baseline.passing + baseline.flaky + baseline.not_passing).toBe(baseline.tests);
    expect(meta.candidates).toBe(52);
    expect(meta.mined).toEqual({ with_tests: 52, without_tests: 0, errors: 0 });
    const byLevel = { 'self-contained': 26, 'file-level': 10, 'repo-level': 16 };
    expect(meta.tasks).toEqual({
      total: 52,
      level_mode: 'deps',
      by_level: byLevel,
      by_level_mode: {
        'repocod-v1': { 'self-contained': 35, 'file-level': 10, 'repo-level': 7 },
        'repocod-v4': { 'self-contained': 26, 'file-level': 11, 'repo-level': 15 },
        deps: byLevel,
      },
      passing_checks: 52,
    });
    expect(meta.validated.passed + meta.validated.failed).toBe(52);
    for (const [stage, seconds] of Object.entries(meta.stage_seconds)) expect(typeof seconds, stage).toBe('number');
    expect(Object.keys(meta.stage_seconds)).toEqual(['prepare', 'extract', 'mine', 'tasks', 'validate']);
    // Every runner job of the demo in the catalog: the baseline shards, mutations, collect checks, validations.
    expect(meta.runner.jobs).toBeGreaterThan(10);
    expect(meta.runner.seconds).toBeGreaterThan(0);
  });

  it('labels an older record under every mode from the source, as the catalog labels it', {
    timeout: 120_000,
  }, async () => {
    const fresh = join(temp.dir, 'fresh');
    const old = join(temp.dir, 'old');
    expect((await record(fresh)).code).toBe(0);
    expect((await record(old)).code).toBe(0);
    // A record from before the modes: no level_mode, no levels, and its levels under deps.
    const strip = (line: string): string => {
      const { level_mode: _mode, levels: _levels, ...rest } = JSON.parse(line) as Record<string, unknown>;
      return JSON.stringify(rest);
    };
    const oldLines = readFileSync(join(old, 'demo.jsonl'), 'utf8').trimEnd().split('\n').map(strip);
    writeFileSync(join(old, 'demo.jsonl'), `${oldLines.join('\n')}\n`);
    const io = bufferIO();
    const args = ['record', '--relabel', '--repo', 'demo', '--levels', 'repocod-v1', '--db', db, '--out', old];
    expect(await main(args, io), io.stderr()).toBe(0);
    expect(io.stdout()).toBe(
      'demo: 52 task(s) labelled under every mode; repocod-v1: self-contained 35, file-level 10, repo-level 7\n',
    );
    const read = (folder: string): Record<string, unknown>[] =>
      readFileSync(join(folder, 'demo.jsonl'), 'utf8')
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, unknown>);
    const [relabelled, catalogs] = [read(old), read(fresh)];
    for (const [index, line] of relabelled.entries()) {
      expect(Object.keys(line)).toEqual(LINE_KEYS);
      expect(line.levels).toEqual(catalogs[index]?.levels);
      expect(line.level).toBe((line.levels as Record<string, string>)['repocod-v1']);
      expect(line.level_mode).toBe('repocod-v1');
    }
    const meta = JSON.parse(readFileSync(join(old, 'demo.meta.json'), 'utf8')) as RecordMeta;
    const freshMeta = JSON.parse(readFileSync(join(fresh, 'demo.meta.json'), 'utf8')) as RecordMeta;
    expect(meta.tasks.by_level_mode).toEqual(freshMeta.tasks.by_level_mode);
    expect(meta.tasks.by_level).toEqual(freshMeta.tasks.by_level_mode['repocod-v1']);
    const unknown = bufferIO();
    expect(await main(['record', '--relabel', '--repo', 'nope', '--db', db, '--out', old], unknown)).toBe(2);
    expect(unknown.stderr()).toMatch(/nope: no record in /);
  });

  it('writes the selection as lite.json with --lite: spec, picks per level in rank order, verdicts', {
    timeout: 60_000,
  }, async () => {
    const out = join(temp.dir, 'lite');
    const io = bufferIO();
    expect(await main(['record', '--lite', '--db', db, '--out', out], io), io.stderr()).toBe(0);
    expect(io.stdout()).toMatch(/^selection: 52 task\(s\) → .*lite\.json\n$/);
    const text = readFileSync(join(out, 'lite.json'), 'utf8');
    expect(text).not.toContain(temp.dir);
    const lite = JSON.parse(text) as LiteRecord;
    expect(Object.keys(lite)).toEqual([
      ...['selection', 'spec', 'tool_version', 'made_with', 'tasks', 'by_repository', 'levels'],
      'failed_validation',
    ]);
    expect(lite.made_with?.checkpoints).toEqual({ demo: null });
    expect(lite.selection).toMatch(/^[0-9a-f]{16}$/);
    expect(lite.spec).toMatchObject({ quotas: { 'self-contained': 66, 'file-level': 67, 'repo-level': 67 } });
    expect(lite.by_repository).toEqual({ demo: 52 });
    expect(Object.keys(lite.levels)).toEqual(['self-contained', 'file-level', 'repo-level']);
    const catalog = await openCatalog(db);
    try {
      const selection = await catalog.selection(lite.selection);
      for (const [level, entry] of Object.entries(lite.levels)) {
        const picks = (selection?.picks ?? []).filter((pick) => pick.level === level).sort((a, b) => a.rank - b.rank);
        expect(entry.picks.map((pick) => [pick.rank, pick.instance_id, pick.score])).toEqual(
          picks.map((pick) => [pick.rank, pick.instanceId, pick.score]),
        );
        expect(entry.cutoff_score).toBe(picks.at(-1)?.score);
        expect(entry.valid + entry.failed + entry.not_validated).toBe(entry.picked);
      }
    } finally {
      await catalog.close();
    }
    // The same verdicts as the repository's record: ensure_non_negative fails, the others pass.
    const all = Object.values(lite.levels).flatMap((entry) => entry.picks);
    expect(all.filter((pick) => pick.valid !== true).map((pick) => [pick.instance_id, pick.valid])).toEqual([
      ['demo-inventory.util.ensure_non_negative', false],
    ]);
    // The pool's failed task is listed with the check it failed, as a replaced pick would be.
    expect(lite.failed_validation).toEqual([
      {
        instance_id: 'demo-inventory.util.ensure_non_negative',
        repository: 'demo',
        level: expect.any(String),
        failed_check: expect.stringMatching(/^fails-without-body: /),
      },
    ]);
    const again = bufferIO();
    expect(await main(['record', '--lite', '--db', db, '--out', out], again)).toBe(0);
    expect(readFileSync(join(out, 'lite.json'), 'utf8')).toBe(text);
  });

  it('refuses an unknown repository, naming the ones the catalog knows', async () => {
    const unknown = await record(join(temp.dir, 'unknown'), '--repo', 'no-such-repo');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/--repo no-such-repo: no such repository in the catalog .*; it knows demo\n$/);
    const none = bufferIO();
    expect(await main(['record', '--db', db], none)).toBe(2);
    // Neither --repo nor --lite: the usage.
    expect(none.stderr()).toMatch(/usage: repocod record \[--repo NAME\]\.\.\. \[--lite\]/);
    const selection = await record(join(temp.dir, 'selection'), '--selection', 'ffffffffffffffff');
    expect(selection.code).toBe(2);
    expect(selection.stderr).toMatch(/--selection ffffffffffffffff: no such selection in the catalog/);
    const lite = bufferIO();
    expect(
      await main(
        ['record', '--lite', '--db', db, '--out', join(temp.dir, 'lite-none'), '--selection', 'ffffffffffffffff'],
        lite,
      ),
    ).toBe(2);
    expect(lite.stderr()).toMatch(/--selection ffffffffffffffff: no such selection in the catalog; `repocod sql/);
  });
});
