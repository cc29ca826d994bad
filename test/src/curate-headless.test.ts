import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FlowEvent } from '@repocod/pipeline';
import { openCatalog } from '@repocod/pipeline';
import { beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from './project-paths.js';

/**
 * `repocod curate --yes` on the bundled demo, as the README's main command runs it: the whole flow
 * from an empty state to a release folder, killed once in the middle and started again (it must carry
 * on from the catalog, not start over), then once more with --json.
 */
const CLI = join(PROJECT_ROOT, 'apps/curate/dist/cli.js');
const state = mkdtempSync(join(tmpdir(), 'repocod-curate-flow-'));
const db = join(state, 'catalog.duckdb');
const out = join(state, 'release');
const args = ['curate', '--yes', '--db', db, '--out', out];

interface Run {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the CLI; `killWhen` sends SIGTERM as soon as the output so far matches it. */
function runCli(extra: readonly string[], killWhen?: RegExp): Promise<Run> {
  return new Promise((resolve, reject) => {
    // A progress line every 50 ms instead of 30 s, so that even the demo's short stages print some.
    const env = { ...process.env, REPOCOD_STATE: state, REPOCOD_PROGRESS_INTERVAL_MS: '50' };
    const child = spawn(process.execPath, [CLI, ...args, ...extra], { cwd: PROJECT_ROOT, env });
    let stdout = '';
    let stderr = '';
    let killed = false;
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (killWhen !== undefined && !killed && killWhen.test(stdout)) {
        killed = true;
        child.kill('SIGTERM');
      }
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

let interrupted: Run;
let resumed: Run;
let again: Run;

beforeAll(async () => {
  // Killed once mining is stored and the tasks stage has begun.
  interrupted = await runCli([], /\[tasks\] demo: tasks, levels and patches/);
  resumed = await runCli([]);
  again = await runCli(['--json']);
}, 900_000);

describe('repocod curate --yes on the demo', () => {
  it('stops on SIGTERM with what finished kept, and says how to carry on', () => {
    expect(interrupted.code).toBe(143);
    expect(interrupted.stdout).toMatch(
      /\[mine\] demo: Lite-first: 52 of 52 candidates mined \(52 now\), 52 with relevant tests/,
    );
    expect(interrupted.stdout).not.toMatch(/\[validate\]/);
    expect(interrupted.stderr).toMatch(/interrupted \(SIGTERM\).*run the same command again/);
  });

  it('prints where a running stage stands every progress interval: jobs done of all, phase, elapsed time', () => {
    expect(interrupted.stdout).toMatch(
      /^ {2}\[mine\] demo: \d+\/\d+ \(\d+%\) baseline: pytest jobs \(whole-suite shards.*\) · [\d.]+ s elapsed/m,
    );
    expect(interrupted.stdout).toMatch(
      /^ {2}\[mine\] demo: \d+\/\d+ \(\d+%\) mutation: pytest jobs .* · [\d.]+ s elapsed/m,
    );
  });

  it('carries on from the catalog when started again, and ends with a release folder', () => {
    expect(resumed.code, resumed.stderr).toBe(0);
    // Nothing mined twice: every function's tests come from the catalog.
    expect(resumed.stdout).toMatch(
      /\[mine\] demo: Lite-first: 52 of 52 candidates mined \(0 now\), 52 with relevant tests/,
    );
    expect(resumed.stdout).toMatch(
      /\[tasks\] demo: 52 tasks \(self-contained 26, file-level 10, repo-level 16\); 52 pass their checks/,
    );
    expect(resumed.stdout).toMatch(/\[validate\]: 52 task\(s\): 51 passed, 1 failed, 0 not judged/);
    expect(resumed.stdout).toMatch(/\[publish\]: version 1\.0: 51 task\(s\) in /);
    // A line per step, and the problems as they happened.
    expect(resumed.stdout).toMatch(/ {2}! demo-inventory\.util\.ensure_non_negative failed: fails-without-body/);
    expect(resumed.stdout).toMatch(/summary \(done\)/);
    expect(existsSync(join(out, 'README.md'))).toBe(true);
    expect(existsSync(join(out, '1.0/test-00000-of-00001.parquet'))).toBe(true);
  });

  it('writes Parquet that DuckDB reads back: the 51 validated tasks with their FAIL_TO_PASS', async () => {
    const catalog = await openCatalog(db);
    try {
      const parquet = join(out, 'data/test-00000-of-00001.parquet').replaceAll("'", "''");
      const rows = await catalog.query(
        `SELECT instance_id, repo, len(evaluation.FAIL_TO_PASS) AS tests, version FROM read_parquet('${parquet}') ` +
          `ORDER BY instance_id`,
      );
      expect(rows.rows).toHaveLength(51);
      const passed = await catalog.query(
        "SELECT DISTINCT instance_id FROM validations WHERE status = 'passed' ORDER BY instance_id",
      );
      expect(rows.rows.map((row) => row[0])).toEqual(passed.rows.map((row) => row[0]));
      expect(rows.rows.every((row) => row[1] === 'demo' && Number(row[2]) > 0 && row[3] === '1.0')).toBe(true);
    } finally {
      await catalog.close();
    }
    expect(readFileSync(join(out, 'README.md'), 'utf8')).toMatch(/config_name: "1\.0"[\s\S]*num_examples: 51/);
  });

  it('prints the progress events as JSON lines with --json, and a third run finds everything done', () => {
    expect(again.code, again.stderr).toBe(0);
    const events = again.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as FlowEvent);
    expect(events[0]).toEqual({
      kind: 'flow-start',
      repositories: ['demo'],
      stages: ['prepare', 'extract', 'mine', 'tasks', 'select', 'validate', 'publish'],
    });
    expect(
      events
        .filter((event) => event.kind === 'stage-done')
        .map((event) => (event.kind === 'stage-done' ? event.stage : '')),
    ).toEqual(['prepare', 'extract', 'mine', 'tasks', 'select', 'validate', 'publish']);
    expect(events.some((event) => event.kind === 'stage-progress')).toBe(true);
    const periodic = events.filter((event) => event.kind === 'stage-progress' && event.periodic === true);
    expect(periodic.length).toBeGreaterThan(0);
    expect(
      periodic.every(
        (event) =>
          event.kind === 'stage-progress' && typeof event.elapsedSeconds === 'number' && event.done <= event.total,
      ),
    ).toBe(true);
    expect(events.at(-1)).toMatchObject({
      kind: 'flow-done',
      ok: true,
      failures: 0,
      release: { version: '1.0', rows: 51, written: false },
    });
  });
});

/** `repocod reference` (any command but curate) on the flow's state, as a user runs it. */
function repocod(...argv: string[]): { code: number | null; stdout: string; stderr: string } {
  const run = spawnSync(process.execPath, [CLI, ...argv, '--db', db], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, REPOCOD_STATE: state },
    encoding: 'utf8',
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

// Each test runs the CLI a few times (mine and tasks too), on a machine as busy as CI's.
describe('repocod reference on the demo release the flow published', { timeout: 300_000 }, () => {
  it('reads the release folder as a seed-form reference, every task resolved by its pre patch byte for byte', () => {
    const added = repocod('reference', 'add', 'demo-1.0', '--from', out, '--config', '1.0');
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toContain('reference demo-1.0: 51 row(s) of the seed form from');
    expect(added.stdout).toContain('(config 1.0); 0 bad record(s)');
    expect(added.stdout).toContain('  resolved 51 of 51 row(s)\n');
    expect(added.stdout).toContain(
      'text agreement of the resolved: exact 51; outside our candidates (docstring rule): 0',
    );
    const audit = repocod('report', '--reference', 'demo-1.0', '--json-file', join(state, 'audit.json'));
    expect(audit.code, audit.stderr).toBe(0);
    const headline = new RegExp(
      'demo-1\\.0 rebuilt from source: 51 of 51 resolved, 51 with a task, (\\d+) with identical FAIL_TO_PASS, ' +
        '(\\d+) differ, 51 valid here, 0 not valid here',
    );
    const line = headline.exec(audit.stdout);
    expect(line, audit.stdout.slice(0, 400)).not.toBeNull();
    expect(Number(line?.[1]) + Number(line?.[2])).toBe(51);
    const written = JSON.parse(readFileSync(join(state, 'audit.json'), 'utf8')) as {
      entries: { instanceId: string; gold: string }[];
    };
    expect(written.entries).toHaveLength(51);
    expect(written.entries[0]?.gold).toBe('not evaluated');
    const two = written.entries.slice(0, 2).flatMap((entry) => ['--instances', entry.instanceId]);
    const evaluated = repocod('evaluate', '--gold', '--release', out, '--out', join(state, 'evaluations'), ...two);
    expect(evaluated.code, evaluated.stderr).toBe(0);
    const again = repocod('report', '--reference', 'demo-1.0', '--html', join(state, 'audit.html'));
    expect(readFileSync(join(state, 'audit.html'), 'utf8')).toContain(
      'demo-1.0 rebuilt from source: 51 of 51 resolved',
    );
    expect(again.stdout).toContain('2 of 2 evaluated resolved by their gold patch within the limit');
    expect(again.stdout).toMatch(/\| 1 \| demo \| .* \| passed \| resolved \(\d+ s\) \| – \|/);
  });

  it('audits a reference whose FAIL_TO_PASS was edited: the test ours lacks, and why', async () => {
    const catalog = await openCatalog(db);
    const parquet = join(out, '1.0/test-00000-of-00001.parquet').replaceAll("'", "''");
    const rows = (await catalog.query(`SELECT to_json(t)::VARCHAR FROM read_parquet('${parquet}') t`)).rows.map(
      (row) => JSON.parse(String(row[0])) as { instance_id: string; evaluation: { FAIL_TO_PASS: string[] } },
    );
    await catalog.close();
    const [first, ...rest] = rows;
    if (first === undefined) throw new Error('the release has no rows');
    const edited = {
      ...first,
      evaluation: { FAIL_TO_PASS: [...first.evaluation.FAIL_TO_PASS, 'tests/test_gone.py::test_x'] },
    };
    const file = join(state, 'edited.jsonl');
    writeFileSync(file, `${[edited, ...rest].map((row) => JSON.stringify(row)).join('\n')}\n`);
    expect(repocod('reference', 'add', 'demo-edited', '--from', file).code).toBe(0);
    const audit = repocod('report', '--reference', 'demo-edited');
    expect(audit.code, audit.stderr).toBe(0);
    expect(audit.stdout).toMatch(/51 of 51 resolved, 51 with a task, \d+ with identical FAIL_TO_PASS, [1-9]\d* differ/);
    expect(audit.stdout).toMatch(
      /\| 1 \| demo \| .* \| yes \| \d+ \/ \d+ \(ours adds 0, lacks 1: not-collected 1\) \|/,
    );
    const listed = repocod('reference', 'list');
    expect(listed.stdout).toMatch(/^demo-1\.0 {2}seed, 51 row\(s\) {2}from .* config 1\.0 {2}added /m);
  });

  it("resolves REPOCOD's form made from the same tasks, and names each row edited to differ", async () => {
    const catalog = await openCatalog(db);
    const functions = new Map((await catalog.functions('demo')).map((fn) => [`${fn.file}::${fn.qualname}`, fn]));
    await catalog.close();
    const tasks = readFileSync(join(out, '1.0/tasks.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { file: string; qualname: string; function_name: string });
    const rows = tasks.map((task, index) => {
      const fn = functions.get(`${task.file}::${task.qualname}`);
      if (fn === undefined) throw new Error(`no function ${task.file}::${task.qualname} in the catalog`);
      return {
        repository: 'demo',
        repo_id: index,
        target_module_path: task.file,
        prompt: fn.slices.prompt,
        full_function: fn.slices.full,
        function_name: task.function_name,
        relevant_test_path: 'tests',
      };
    });
    const [changed, renamed, moved] = rows as [(typeof rows)[0], (typeof rows)[0], (typeof rows)[0]];
    const edited = [
      { ...changed, full_function: `${changed.full_function}        return None\n` },
      { ...renamed, function_name: 'renamed_function' },
      { ...moved, target_module_path: 'inventory/gone.py' },
      ...rows.slice(3),
    ];
    const file = join(state, 'repocod-form.jsonl');
    const lines = [...edited.map((row) => JSON.stringify(row)), '{oops', JSON.stringify({ repository: 'demo' })];
    writeFileSync(file, `${lines.join('\n')}\n`);
    const added = repocod('reference', 'add', 'demo-repocod', '--from', file);
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toContain('51 row(s) of the repocod form');
    expect(added.stdout).toContain(`${file}:52: not a JSON value`);
    expect(added.stdout).toContain(`${file}:53: is of no known form`);
    expect(added.stdout).toMatch(
      /resolved 48 of 51 row\(s\); unresolved: file-absent 1, no-such-function 1, text-differs 1; 2 bad record\(s\)/,
    );
    expect(added.stdout).toContain('text agreement of the resolved: exact 48');
    const json = join(state, 'resolution.json');
    const shown = repocod('reference', 'show', 'demo-repocod', '--unresolved', '--json-file', json);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain(`#1 demo [0] ${changed.function_name} ✗ text-differs:`);
    expect(shown.stdout).toContain('+ theirs         return None');
    expect(shown.stdout).toContain(
      `#2 demo [1] renamed_function ✗ no-such-function: no function of ` +
        `${renamed.target_module_path} is named renamed_function; ${renamed.target_module_path}::`,
    );
    expect(shown.stdout).toContain('has its full_function (renamed?)');
    expect(shown.stdout).toContain('#3 demo [2] ');
    expect(shown.stdout).toContain(
      'file-absent: target_module_path inventory/gone.py is not a Python file at the commit',
    );
    expect(shown.stdout).not.toContain('#4 demo');
    const written = JSON.parse(readFileSync(json, 'utf8')) as { rows: { status: string; function?: object }[] };
    expect(written.rows.filter((row) => row.status === 'resolved')).toHaveLength(48);
    // Each full_function measured as our extraction measures a function: the same #NL, #GT and complexity.
    const audit = repocod('report', '--reference', 'demo-repocod');
    expect(audit.code, audit.stderr).toBe(0);
    expect(audit.stdout).toContain("0 task(s) measure otherwise on the reference's own text");
    const levels = 'deps [a-z-]+, repocod-v1 [a-z-]+, repocod-v4 [a-z-]+';
    expect(audit.stdout).toMatch(
      new RegExp(`\\| 4 \\| demo \\| .* \\| – \\| \\d+ / \\d+ / \\d+ \\(same\\) \\| ${levels} \\|`),
    );
  });

  it('mines and makes tasks of exactly the functions of a reference, one outside our candidates', async () => {
    const catalog = await openCatalog(db);
    const functions = await catalog.functions('demo');
    await catalog.close();
    const candidates = functions.filter((fn) => fn.isCandidate && fn.file.startsWith('inventory/')).slice(0, 2);
    const outside = functions.find(
      (fn) => !fn.isCandidate && fn.file.startsWith('inventory/') && fn.slices.solution.trim() !== '' && !fn.nested,
    );
    if (outside === undefined || candidates.length < 2) throw new Error('the demo lacks the functions this test needs');
    const rows = [...candidates, outside].map((fn, index) => ({
      repository: 'demo',
      repo_id: index,
      target_module_path: fn.file,
      function_name: fn.qualname,
      full_function: fn.slices.full,
    }));
    const file = join(state, 'three.jsonl');
    writeFileSync(file, `${rows.map((row) => JSON.stringify(row)).join('\n')}\n`);
    expect(repocod('reference', 'add', 'three', '--from', file).stdout).toContain('resolved 3 of 3 row(s)');
    const mined = repocod('mine', 'demo', '--reference', 'three', '--workers', '2');
    expect(mined.code, mined.stderr).toBe(0);
    expect(mined.stdout).toContain(
      '  reference        three: 3 row(s) of the repository, 3 function(s) (1 outside our candidates), 0 unresolved',
    );
    expect(mined.stdout).toMatch(/candidates {7}3; 1 mined now, 2 from an earlier run/);
    const withTests = Number(/with tests {7}(\d+)/.exec(mined.stdout)?.[1]);
    const tasks = repocod('tasks', 'demo', '--reference', 'three');
    expect(tasks.code, tasks.stderr).toBe(0);
    expect(tasks.stdout).toMatch(new RegExp(`^demo: ${withTests} tasks in`, 'm'));
    const kept = repocod('select', '--reference', 'three', '--keep-all');
    expect(kept.code, kept.stderr).toBe(0);
    expect(kept.stdout).toContain(`reference three: 3 row(s), 3 resolve, ${withTests} with a task in the catalog`);
    expect(kept.stdout).toMatch(
      new RegExp(`^selection [0-9a-f]{16}: ${withTests} tasks; .*; reference three, all kept$`, 'm'),
    );
    const lite = repocod('select', '--reference', 'three');
    expect(lite.stdout).toMatch(/note: file-level has \d+ tasks, fewer than its quota of 67: all of them were taken/);
    expect(repocod('mine', 'demo', '--reference', 'three', '--candidates', 'called').stderr).toContain(
      'a reference names its functions itself',
    );
  });

  it("resolves function names alone (the form of REPOCOD's flaky_tests.json), and refuses a source of no rows", () => {
    const tasks = readFileSync(join(out, '1.0/tasks.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { function_name: string });
    const names = join(state, 'names.json');
    writeFileSync(
      names,
      JSON.stringify({ demo: Object.fromEntries(tasks.map((task, i) => [String(i), task.function_name])) }),
    );
    const added = repocod('reference', 'add', 'demo-names', '--from', names);
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toContain('51 row(s) of the names form');
    expect(added.stdout).toContain('resolved 51 of 51 row(s)');
    const empty = join(state, 'empty.json');
    writeFileSync(empty, JSON.stringify({ demo: 3 }));
    const refused = repocod('reference', 'add', 'nothing', '--from', empty);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain(`${empty}: no row of a known form (1 record(s)):`);
    expect(refused.stderr).toContain(`${empty}: $["demo"]: is neither an object keyed by repo_id`);
    expect(repocod('reference', 'show', 'nothing').stderr).toContain(
      'no reference nothing in the catalog (it has demo-1.0, demo-edited, demo-names, demo-repocod, three)',
    );
  });

  it('rebuilds its own release through curate --reference: the same tasks, patches and verdicts, byte for byte', {
    timeout: 600_000,
  }, async () => {
    const refused = repocod('curate', '--yes', '--reference', 'demo-1.0', '--all', '--out', out);
    expect(refused.stderr).toContain("--all and --reference demo-1.0: a reference's functions are all mined");
    // No --repo: the repositories the reference's rows name. Mining and validation answer from the catalog.
    const rebuilt = repocod(
      'curate',
      '--yes',
      '--reference',
      'demo-1.0',
      '--keep-all',
      '--version',
      '1.1',
      '--out',
      out,
    );
    expect(rebuilt.code, rebuilt.stdout + rebuilt.stderr).toBe(0);
    expect(rebuilt.stdout).toMatch(/\[select\]: selection [0-9a-f]{16}: 51 tasks .*; reference demo-1\.0, all kept/);
    expect(rebuilt.stdout).toContain('version 1.1: 51 task(s) in');
    const card = readFileSync(join(out, 'README.md'), 'utf8');
    expect(card).toContain('## Rebuilt from a reference');
    expect(card).toMatch(
      /the reference `demo-1\.0` \(`[^`]+`, config `1\.0`, no revision given, seed form, content sha256/,
    );
    expect(card).toContain('Released: 51 of the 51 rows; left out: 0; released with a difference from their row: 0.');
    const fates = readFileSync(join(out, '1.1/reference.jsonl'), 'utf8').trim().split('\n');
    expect(fates).toHaveLength(51);
    expect(fates.map((line) => JSON.parse(line) as { released: boolean; changes: string[] })).toEqual(
      fates.map(() => expect.objectContaining({ released: true, changes: [] })),
    );
    // Every column but the version, row for row: the rebuild is the release it was made from.
    const catalog = await openCatalog(db);
    const rows = async (version: string): Promise<string[]> => {
      const parquet = join(out, `${version}/test-00000-of-00001.parquet`).replaceAll("'", "''");
      const result = await catalog.query(
        `SELECT to_json(t)::VARCHAR FROM (SELECT * EXCLUDE (version) FROM read_parquet('${parquet}')) t ` +
          `ORDER BY instance_id`,
      );
      return result.rows.map((row) => String(row[0]));
    };
    const [first, second] = [await rows('1.0'), await rows('1.1')];
    await catalog.close();
    expect(second).toHaveLength(51);
    expect(second).toEqual(first);
    // The verdicts too: the rebuilt tasks hash as before, so their validations (checks, run ids) are the same.
    // 1.0's selection also held a task that failed validation; the release it made (the reference) did not.
    const validation = (version: string): string[] =>
      readFileSync(join(out, `${version}/validation.jsonl`), 'utf8')
        .trim()
        .split('\n')
        .filter((line) => (JSON.parse(line) as { released: boolean }).released)
        .sort();
    expect(validation('1.1')).toHaveLength(51);
    expect(validation('1.1')).toEqual(validation('1.0'));
    const selection = /\[select\]: selection ([0-9a-f]{16})/.exec(rebuilt.stdout)?.[1] ?? '';
    const other = repocod(
      'publish',
      '--version',
      '9.9',
      '--reference',
      'three',
      '--selection',
      selection,
      '--out',
      out,
    );
    expect(other.code).not.toBe(0);
    expect(other.stderr).toContain(
      `selection ${selection} is over reference demo-1.0, not three; run \`repocod select`,
    );
    const none = repocod('validate', '--reference', 'demo-names');
    expect(none.stderr).toContain('no selection over reference demo-names in the catalog; run `repocod select');
  });
});
