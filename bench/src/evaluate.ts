import { resolve } from 'node:path';
/**
 * `pnpm bench:evaluate`: evaluations per minute with 1 and 2 workers, same run. The demo's release (the
 * whole flow on a private state, not measured), then its gold patches evaluated as predictions, every
 * job run afresh, on the local pool with 1 worktree (the baseline), then with 2. Prints the wall time,
 * evaluations per minute and the speed-up, and whether both runs gave the same report.
 * `--release DIR [--version V]` measures a release of the user's instead (e.g. a real repository's,
 * with `--source NAME=PATH` for its clone).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { EvaluationReport } from '@repocod/pipeline';
import { runEvaluateCommand, openCatalog, runFlow } from '@repocod/pipeline';

const PROJECT_ROOT = resolve(new URL('../..', import.meta.url).pathname);
const { values } = parseArgs({
  options: { release: { type: 'string' }, version: { type: 'string' }, source: { type: 'string', multiple: true } },
});
const folder = mkdtempSync(join(tmpdir(), 'repocod-bench-evaluate-'));
const stateRoot = join(folder, 'state');
const catalog = await openCatalog(join(folder, 'catalog.duckdb'));
try {
  console.log(`${availableParallelism()} cores; state in ${folder}`);
  let release = values.release;
  if (release === undefined) {
    const started = performance.now();
    release = join(folder, 'release');
    const flow = await runFlow(catalog, {
      projectRoot: PROJECT_ROOT,
      stateRoot,
      repositories: ['demo'],
      workers: 2,
      out: release,
    });
    if (!flow.ok) throw new Error(`the demo flow failed: ${JSON.stringify(flow.failures)}`);
    console.log(`the demo's release made in ${((performance.now() - started) / 1000).toFixed(1)} s (not measured)`);
  }
  const runs: { label: string; seconds: number; evaluated: number; report: EvaluationReport }[] = [];
  for (const workers of [1, 2]) {
    const started = performance.now();
    const summary = await runEvaluateCommand(catalog, {
      projectRoot: PROJECT_ROOT,
      stateRoot,
      sources: values.source ?? [],
      release,
      version: values.version,
      gold: true,
      fresh: true,
      workers,
      runId: `bench-${workers}`,
      outDir: join(folder, 'evaluations'),
    });
    const report = summary.reports[0]?.report;
    if (report === undefined) throw new Error('no report');
    const label = workers === 1 ? '1 worker (baseline)' : `${workers} workers`;
    runs.push({ label, seconds: (performance.now() - started) / 1000, evaluated: summary.evaluatedNow, report });
  }
  const baseline = runs[0] as (typeof runs)[number];
  const row = (cells: readonly string[]): string =>
    cells
      .map((cell, index) => (index === 0 ? cell.padEnd(22) : cell.padStart([9, 10, 8, 9][index - 1] ?? 9)))
      .join(' ');
  console.log(`\n${row(['setup', 'wall', 'evaluated', 'per min', 'speed-up'])}`);
  for (const run of runs)
    console.log(
      row([
        run.label,
        `${run.seconds.toFixed(1)} s`,
        String(run.evaluated),
        ((run.evaluated / run.seconds) * 60).toFixed(1),
        `${(baseline.seconds / run.seconds).toFixed(2)}x`,
      ]),
    );
  const same = (report: EvaluationReport): string => JSON.stringify({ ...report, run_id: '' });
  const alike = runs.every((run) => same(run.report) === same(baseline.report));
  const { resolved_instances: resolved, total_instances: total } = baseline.report;
  console.log(`\nreports alike: ${alike ? 'yes' : 'NO'} (${resolved} of ${total} resolved)`);
  if (!alike) process.exitCode = 1;
} finally {
  await catalog.close();
  rmSync(folder, { recursive: true, force: true });
}
