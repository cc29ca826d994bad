/**
 * `pnpm bench:mine [REPO] [--source NAME=PATH] [--workers N] [--only QUALNAME]…`: mining of one
 * repository (default: the demo) in the fast mode and in the exact mode (REPOCOD's method, the named
 * baseline), in the same run, on the same prepared repository, each from nothing (no stored baseline,
 * coverage or results): fast, exact, fast again. Prints, per run: wall time, pytest processes, test
 * executions and the time of each phase; then the ratios, and whether the modes found identical
 * FAIL_TO_PASS sets, with the tests that differ.
 */
import { resolve } from 'node:path';
import { IN_MEMORY, openCatalog } from '@repocod/catalog';
import type { FunctionMining, MiningMode, MiningSummary, MutationTarget } from '@repocod/mining';
import { MemoryMiningStore, mineRepository } from '@repocod/mining';
import { LocalExecutor } from '@repocod/runner';
import { extractStep } from '@repocod/pipeline';
import { mutationTargets, selectFunctions } from '@repocod/pipeline';
import { prepareStep } from '@repocod/pipeline';

const projectRoot = resolve(new URL('../..', import.meta.url).pathname);
const args = process.argv.slice(2);
const sources: string[] = [];
const only: string[] = [];
let workers = 2;
let repository = 'demo';
for (let index = 0; index < args.length; index++) {
  const arg = args[index] as string;
  const value = args[index + 1];
  if (arg === '--source' && value !== undefined) {
    sources.push(value);
    index++;
  } else if (arg === '--only' && value !== undefined) {
    only.push(value);
    index++;
  } else if (arg === '--workers' && value !== undefined) {
    workers = Number(value);
    index++;
  } else if (!arg.startsWith('--')) repository = arg;
  else {
    console.error('usage: pnpm bench:mine [REPO] [--source NAME=PATH] [--workers N] [--only QUALNAME]…');
    process.exit(2);
  }
}

const prepared = await prepareStep(repository, { projectRoot, sources, workers });
const catalog = await openCatalog(IN_MEMORY);
await extractStep(catalog, { root: prepared.checkout.path, repository: prepared.entry.name });
const targets = mutationTargets(
  selectFunctions(await catalog.functions(prepared.entry.name, { candidatesOnly: true }), only, prepared.entry.name),
  prepared.checkout.path,
);
await catalog.close();

async function mine(mode: MiningMode, list: readonly MutationTarget[]): Promise<MiningSummary> {
  return mineRepository(prepared, new LocalExecutor(prepared), list, { mode, store: new MemoryMiningStore() });
}

const totals = (summary: MiningSummary): { processes: number; executions: number } => ({
  processes: summary.phases.reduce((sum, phase) => sum + phase.processes, 0),
  executions: summary.phases.reduce((sum, phase) => sum + phase.testExecutions, 0),
});

function report(label: string, summary: MiningSummary): void {
  const { processes, executions } = totals(summary);
  console.log(
    `${label.padEnd(6)} ${summary.wallSeconds.toFixed(1).padStart(8)} s wall   ${String(processes).padStart(6)} ` +
      `pytest ` +
      `processes   ${String(executions).padStart(8)} test executions`,
  );
  for (const phase of summary.phases) {
    console.log(
      `         ${phase.phase.padEnd(9)} ${phase.wallSeconds.toFixed(1).padStart(7)} s   ` +
        `${String(phase.processes).padStart(6)} processes (busy ${phase.busySeconds.toFixed(1)} s)   ` +
        `${String(phase.testExecutions).padStart(8)} test executions`,
    );
  }
  const byMethod = new Map<string, number>();
  for (const fn of summary.functions) byMethod.set(fn.method, (byMethod.get(fn.method) ?? 0) + 1);
  console.log(`         by method: ${[...byMethod].map(([method, count]) => `${method} ${count}`).join(', ')}`);
  const costliest = [...summary.functions].sort((a, b) => b.seconds - a.seconds).slice(0, 3);
  console.log(
    `         costliest: ${costliest
      .map((fn) => `${fn.qualname} ${fn.seconds.toFixed(2)} s (${fn.method}, ${fn.candidates} tests)`)
      .join('; ')}`,
  );
}

console.log(
  `repository ${prepared.entry.name} at ${prepared.checkout.baseCommit.slice(0, 12)}: ${targets.length} candidate ` +
    `functions, ${prepared.worktrees.length} workers, python ${prepared.environment.pythonVersion}`,
);
// The fast mode runs before and after the exact mode (minutes long), so that a slow stretch of a
// shared machine weighs on both sides alike; its figure is the mean of the two.
const fastBefore = await mine('fast', targets);
report('fast', fastBefore);
const exact = await mine('exact', targets);
report('exact', exact);
const fastAfter = await mine('fast', targets);
report('fast', fastAfter);
const fast = fastBefore;

const fastTotals = totals(fast);
const exactTotals = totals(exact);
const fastWall = (fastBefore.wallSeconds + fastAfter.wallSeconds) / 2;
console.log(
  `ratios   exact/fast: wall ${(exact.wallSeconds / fastWall).toFixed(1)}x (fast ${fastWall.toFixed(1)} s, mean of ` +
    `both runs), processes ${(exactTotals.processes / fastTotals.processes).toFixed(1)}x, test executions ` +
    `${(exactTotals.executions / fastTotals.executions).toFixed(1)}x`,
);
const exactById = new Map(exact.functions.map((fn) => [fn.id, fn]));
const sameAsExact = (summary: MiningSummary): FunctionMining[] =>
  summary.functions.filter((fn) => {
    const other = exactById.get(fn.id);
    return other === undefined || other.status !== fn.status || other.tests.join('\n') !== fn.tests.join('\n');
  });
const differences = sameAsExact(fast);
const withTests = fast.functions.filter((fn) => fn.status === 'tests');
console.log(
  `tasks    ${withTests.length} of ${targets.length} functions have relevant tests; flaky tests: ` +
    `${fast.baseline.tests.filter((test) => test.status === 'flaky').length}`,
);
console.log(
  `sets     ${differences.length === 0 ? 'identical' : `${differences.length} DIFFERENT`} FAIL_TO_PASS (fast vs ` +
    `exact) ` +
    `over ${targets.length} functions; second fast run ` +
    `${sameAsExact(fastAfter).length === differences.length ? 'agrees' : 'DISAGREES'}`,
);
for (const fn of differences.slice(0, 20)) {
  const other = exactById.get(fn.id);
  const onlyExact = (other?.tests ?? []).filter((test) => !fn.tests.includes(test));
  const onlyFast = fn.tests.filter((test) => !(other?.tests ?? []).includes(test));
  console.log(
    `  ${fn.qualname} (${fn.method}): only exact [${onlyExact.join(', ')}]; only fast [${onlyFast.join(', ')}]`,
  );
}
process.exitCode = differences.length === 0 ? 0 : 1;
