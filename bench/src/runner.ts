/**
 * `pnpm bench:runner [--jobs N]`: the demo's suite split into N jobs (default 8), run by the local
 * executor with 1 worker (the baseline) and with 2 workers, in the same run, on the same prepared
 * repository, alternated, best of two each. Prints wall times, throughput and the speed-up, and
 * checks that both give the same outcome for every test.
 */
import { resolve } from 'node:path';
import type { RunJob } from '@repocod/runner';
import { LocalExecutor } from '@repocod/runner';
import { loadManifest } from '@repocod/runner';
import type { PreparedRepository } from '@repocod/runner';
import { prepareRepository, runnerPaths } from '@repocod/runner';

const projectRoot = resolve(new URL('../..', import.meta.url).pathname);
const jobsArg = process.argv.indexOf('--jobs');
const jobCount = jobsArg === -1 ? 8 : Number(process.argv[jobsArg + 1]);
if (!Number.isInteger(jobCount) || jobCount < 1) {
  console.error('usage: pnpm bench:runner [--jobs N]');
  process.exit(2);
}

const entry = loadManifest(resolve(projectRoot, 'datasets/demo/manifest.yaml')).repositories[0];
if (entry === undefined) throw new Error('the demo manifest has no repository');
const prepared = await prepareRepository(entry, runnerPaths(projectRoot), { workers: 2 });

async function timed(
  repository: PreparedRepository,
  jobs: readonly RunJob[],
): Promise<{ seconds: number; outcomes: Map<string, string>; tests: number }> {
  const started = performance.now();
  const outcomes = new Map<string, string>();
  for await (const { result } of new LocalExecutor(repository).run(jobs)) {
    for (const run of result.runs) for (const test of run.results) outcomes.set(test.nodeId, test.outcome);
  }
  return { seconds: (performance.now() - started) / 1000, outcomes, tests: outcomes.size };
}

// The node ids, from one whole-suite run (which also warms the file cache for both measurements).
const whole = await timed(prepared, [{ repository: 'demo', patches: [], tests: 'all' }]);
const ids = [...whole.outcomes.keys()];
const jobs: RunJob[] = Array.from({ length: jobCount }, (_, index) => ({
  repository: 'demo',
  patches: [],
  tests: ids.filter((_, position) => position % jobCount === index),
}));

// Alternated and best of two each, so that neither side gains from running second (warm caches).
const single = { ...prepared, worktrees: prepared.worktrees.slice(0, 1) };
const best = (
  a: Awaited<ReturnType<typeof timed>>,
  b: Awaited<ReturnType<typeof timed>>,
): Awaited<ReturnType<typeof timed>> => (a.seconds <= b.seconds ? a : b);
const oneFirst = await timed(single, jobs);
const twoFirst = await timed(prepared, jobs);
const one = best(oneFirst, await timed(single, jobs));
const two = best(twoFirst, await timed(prepared, jobs));
const same = [...one.outcomes].every(([id, outcome]) => two.outcomes.get(id) === outcome) && one.tests === two.tests;

console.log(
  `repository    demo (${ids.length} tests) in ${jobCount} jobs; environment ${prepared.environment.installer}, ` +
    `python ` +
    `${prepared.environment.pythonVersion}`,
);
console.log(
  `baseline      1 worker:  ${one.seconds.toFixed(2)} s, ${(one.tests / one.seconds).toFixed(1)} tests/s, ` +
    `${(jobCount / one.seconds).toFixed(2)} jobs/s`,
);
console.log(
  `parallel      2 workers: ${two.seconds.toFixed(2)} s, ${(two.tests / two.seconds).toFixed(1)} tests/s, ` +
    `${(jobCount / two.seconds).toFixed(2)} jobs/s`,
);
console.log(`speed-up      ${(one.seconds / two.seconds).toFixed(2)}x with 2 workers`);
console.log(`results       ${same ? 'identical' : 'DIFFERENT'} outcomes for all ${one.tests} tests`);
process.exitCode = same ? 0 : 1;
