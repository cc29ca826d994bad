import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LoopbackHub } from '@repocod/testkit';
import { startLoopbackHub } from '@repocod/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from './main.js';
import { bufferIO, CLI_PATH, makeTempDir } from './testing/test-support.js';

const folder = makeTempDir();
const db = join(folder.dir, 'catalog.duckdb');
const out = join(folder.dir, 'release');
const EQ = 'demo-inventory.models.Record.__eq__';
/** The demo's task that REPOCOD's rule rejects: all its tests pass when its body is removed. */
const EMPTY_BODY_SOLVES = 'demo-inventory.util.ensure_non_negative';
let hub: LoopbackHub;

/** The built binary in its own process, killed with SIGTERM once `killAfter` shows on its stderr. */
function interruptedValidate(killAfter: RegExp): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI_PATH, 'validate', '--db', db, '--workers', '2'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    let sent = false;
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (!sent && killAfter.test(stderr)) sent = child.kill('SIGTERM');
    });
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

/** Pids of the processes whose working directory lies under `root` (read from /proc). */
function processesWorkingIn(root: string): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return readlinkSync(`/proc/${pid}/cwd`).startsWith(root);
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** The processes working in `root`, looked at again until there are none or 10 s have passed. */
async function stillWorkingIn(root: string): Promise<number[]> {
  for (let attempt = 0; ; attempt++) {
    const left = processesWorkingIn(root);
    if (left.length === 0 || attempt === 100) return left;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

beforeAll(async () => {
  // A state folder of this test's own: its worktrees are shared with no other test file.
  process.env.REPOCOD_STATE = join(folder.dir, 'state');
  expect(await main(['mine', 'demo', '--db', db], bufferIO())).toBe(0);
  // retry's task fails its patch checks: data, not a failure of the stage (exit 0).
  expect(await main(['tasks', 'demo', '--db', db], bufferIO())).toBe(0);
  const spec = join(folder.dir, 'spec.json');
  // Three tasks whose every test fails without the body; three whose body, once removed, leaves some of
  // their tests passing: REPOCOD's rule keeps those (one failing test is enough), --narrow drops them;
  // and ensure_non_negative, which no test fails without the body: the empty body solves it, so it fails.
  const qualnames = ['slugify', 'quote', 'Record.__eq__', 'PricedItem.price_for', 'Bin.take', 'format_table'];
  qualnames.push('ensure_non_negative');
  writeFileSync(spec, JSON.stringify({ filter: `qualname IN (${qualnames.map((name) => `'${name}'`).join(', ')})` }));
  expect(await main(['select', '--spec', spec, '--db', db], bufferIO())).toBe(0);
  hub = await startLoopbackHub();
}, 600_000);

afterAll(async () => {
  await hub.close();
  delete process.env.REPOCOD_STATE;
  delete process.env.HF_TOKEN;
  folder.cleanup();
});

describe('repocod validate', () => {
  it('stops on SIGTERM with the tasks done so far kept, and a rerun carries on from the catalog', {
    timeout: 300_000,
  }, async () => {
    const killed = await interruptedValidate(/validated 2\/7/);
    expect(killed.code, killed.stderr).toBe(143);
    // Two jobs per task, without the body and the one gold run that decides the fit (validation 4): the collect job
    // is the tasks stage's, mining's baseline answers the gold check.
    expect(killed.stderr).toMatch(/demo: 7 task\(s\), 7 to validate \(14 job\(s\) to run, 7 from the catalog\)/);
    expect(killed.stderr).toContain(
      'interrupted (SIGTERM): what finished is in the catalog; run the same command again to carry on',
    );
    // Its pytest runs (process groups of their own, which the signal does not reach) ended with it:
    // without that, the jobs in flight when it stopped would still be running now. A group it killed on
    // its way out may take a moment to be torn down on a loaded machine: looked at again for a while.
    expect(await stillWorkingIn(join(folder.dir, 'state'))).toEqual([]);

    const rerun = bufferIO();
    expect(await main(['validate', '--db', db, '--workers', '2'], rerun), rerun.stderr()).toBe(0);
    const done = Number(/\((\d+) now, (\d+) from an earlier run\)/.exec(rerun.stdout())?.[2]);
    expect(done).toBeGreaterThanOrEqual(2);
    expect(done).toBeLessThan(7);
    const text = rerun.stdout();
    expect(text).toMatch(/^selection [0-9a-f]{16}: 7 task\(s\) validated/);
    expect(text).toMatch(/ {4}collects {10} +7 +0 +0\n/);
    expect(text).toMatch(/ {4}fails w\/o body +6 +1 +0\n/);
    expect(text).toMatch(/ {4}passes w\/ gold +7 +0 +0\n/);
    expect(text).toContain('  verdicts         6 passed, 1 failed, 0 infrastructure error(s)');
    expect(text).toContain(
      "  gold check       7 task(s) answered by mining's baseline, 0 by 3 run(s) of the gold patches",
    );
    expect(text).toMatch(
      /provenance {7}repocod-kit \d+\.\d+\.\d+.*\n {19}demo: python 3\.\d+\.\d+, packages [0-9a-f]{12}/,
    );

    const again = bufferIO();
    expect(await main(['validate', '--db', db], again)).toBe(0);
    expect(again.stdout()).toContain('7 task(s) validated (0 now, 7 from an earlier run)');
    const unknown = bufferIO();
    expect(await main(['validate', '--db', db, '--repo', 'flask'], unknown)).toBe(2);
    expect(unknown.stderr()).toMatch(/--repo flask: selection \w+ has no task of it/);
  });

  it('shows a task’s validation: each check, the tests concerned, the log and the provenance', {
    timeout: 300_000,
  }, async () => {
    const show = bufferIO();
    expect(await main(['show', EQ, '--db', db], show)).toBe(0);
    const text = show.stdout();
    expect(text).toMatch(
      / {2}validation {3}passed \(\d{4}-\d\d-\d\dT[\d:.]+Z, gold check by mining's 3 baseline run\(s\)\)/,
    );
    expect(text).toMatch(
      new RegExp(
        String.raw` {4}fails-without-body passed {6}1 of 13 FAIL_TO_PASS test\(s\) fail without the body \(the run ` +
          String.raw`stops at the first failure: \d+ passed before it, \d+ not run\)`,
      ),
    );
    expect(text).toContain(
      '    passes-with-gold   passed      ' +
        'all 13 test(s) pass in each of 3 baseline run(s) of mining at the base commit',
    );
    // The collect run, the run without the body and the gold fit run; the baseline answered the gold check.
    expect(text).toMatch(/run ids {6}([0-9a-f]{64}:\d ?){3}\n/);

    const failed = bufferIO();
    expect(await main(['show', EMPTY_BODY_SOLVES, '--db', db], failed)).toBe(0);
    const failure = failed.stdout();
    expect(failure).toMatch(
      / {2}validation {3}failed \(\d{4}-\d\d-\d\dT[\d:.]+Z, gold check by mining's 3 baseline run\(s\)\)/,
    );
    expect(failure).toContain(
      '    fails-without-body failed      no FAIL_TO_PASS test fails without the body (4 pass)',
    );
    expect(failure).toContain('tests/test_util.py::test_ensure_non_negative_names_what_it_counts (passed)');
    expect(failure).toMatch(
      new RegExp(
        String.raw`--- log of fails-without-body \(last \d+ lines; repocod sql "select log from runs where run_id =` +
          String.raw` '[0-9a-f]{64}:1'" for all of it\) ---`,
      ),
    );
    expect(failure).toMatch(/=+ 4 passed, \d+ deselected in /);
  });
});

describe('repocod publish', () => {
  it('writes the validated tasks, then pushes to the Hub with the token from HF_TOKEN, never printing it', {
    timeout: 300_000,
  }, async () => {
    const first = bufferIO();
    expect(await main(['publish', '--version', '1.0', '--out', out, '--db', db], first), first.stderr()).toBe(0);
    expect(first.stdout()).toMatch(
      /^release .*release: version 1\.0 written, 6 of the 7 task\(s\) of selection [0-9a-f]{16}\n/,
    );
    expect(first.stdout()).toContain(
      '  validation 6 passed every check; left out (failed validation): 1; 0 flaky test(s) removed',
    );
    const record = readFileSync(join(out, '1.0/validation.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(record.find((row) => row.instance_id === EQ)).toMatchObject({
      status: 'passed',
      gold_check_from: 'baseline',
      passing_without_body_complete: false,
      dropped_tests: [],
    });
    expect(first.stdout()).toContain(
      `    - ${EMPTY_BODY_SOLVES} (fails-without-body: no FAIL_TO_PASS test fails without the body (4 pass))`,
    );
    expect(first.stdout()).toContain('  diff       first version');

    const noToken = bufferIO();
    delete process.env.HF_TOKEN;
    expect(
      await main(['publish', '--push', 'repocod/demo', '--out', out, '--hub-url', hub.url, '--db', db], noToken),
    ).toBe(1);
    expect(noToken.stderr()).toContain('error: no Hugging Face token: set HF_TOKEN to a write token (hf_…)');
    const badName = bufferIO();
    expect(
      await main(['publish', '--push', 'https://huggingface.co/datasets/x/y', '--out', out, '--db', db], badName),
    ).toBe(2);

    process.env.HF_TOKEN = hub.token;
    // Validated again with --narrow: the three tasks with tests passing without the body lose those tests.
    expect(await main(['validate', '--narrow', '--db', db], bufferIO())).toBe(0);
    const dry = bufferIO();
    // --keep publishes the failed task all the same.
    expect(
      await main(
        [
          'publish',
          '--version',
          '1.1',
          '--keep',
          EMPTY_BODY_SOLVES,
          '--push',
          'repocod/demo',
          '--hub-url',
          hub.url,
          '--out',
          out,
          '--db',
          db,
          '--dry-run',
        ],
        dry,
      ),
      dry.stderr(),
    ).toBe(0);
    expect(dry.stdout()).toMatch(/^dry run: nothing is written or uploaded\n/);
    expect(dry.stdout()).toContain(
      `  diff       against 1.0: 1 added, 0 removed, 3 changed\n    + ${EMPTY_BODY_SOLVES}`,
    );
    expect(dry.stdout()).toMatch(/upload {5}10 files, .*, one commit "Add version 1\.1 \(7 tasks\)" \(not sent\)/);
    expect(existsSync(join(out, '1.1'))).toBe(false);
    expect(hub.commits()).toEqual([]);

    const pushed = bufferIO();
    expect(
      await main(['publish', '--push', 'repocod/demo', '--hub-url', hub.url, '--out', out, '--db', db], pushed),
      pushed.stderr(),
    ).toBe(0);
    expect(pushed.stdout()).toContain(`release ${out}: pushed as it is`);
    expect(pushed.stdout()).toMatch(/pushed {5}created the dataset repository; commit [0-9a-f]{12}: /);
    expect(`${pushed.stdout()}${pushed.stderr()}`).not.toContain(hub.token);
    const [commit] = hub.commits('repocod/demo');
    expect(commit?.title).toBe('Upload the release (versions 1.0)');
    expect(Buffer.from(commit?.files.find((file) => file.path === 'README.md')?.bytes ?? [])).toEqual(
      readFileSync(join(out, 'README.md')),
    );
  });
});
