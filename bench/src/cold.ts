/**
 * `pnpm bench:cold [REPO] [--manifest FILE] [--source NAME=PATH] [--at NAME=REF] [--changed-since DATE] [--workers N]`:
 * the whole flow of one repository (default: the demo) from an empty catalog, twice in the same run: first as its
 * manifest entry says (the baseline: REPOCOD's k runs of the whole suite, or the entry's baseline_runs), then with
 * `baseline_reruns: relevant` and `baseline_runs` set to validation's k (docs/mining.md). Prints each run's cost per
 * phase (the flow's cost ledger: jobs, processes, test executions, whole-suite equivalents, busy seconds) and wall
 * time, the ratios, and whether both runs released the same tasks with the same FAIL_TO_PASS and verdicts. The
 * environment and worktrees are shared (built before the first run, not measured): the runs differ in what they
 * run, not in what they install.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { BuildCost, FlowResult, PhaseCost } from '@repocod/pipeline';
import { costTable, openCatalog, prepareStep, runFlow, wholeSuites } from '@repocod/pipeline';
import { loadManifest, validateRunsOf } from '@repocod/runner';
import { parseDocument } from 'yaml';

const projectRoot = resolve(new URL('../..', import.meta.url).pathname);
const USAGE =
  'usage: pnpm bench:cold [REPO] [--manifest FILE] [--source NAME=PATH] [--at NAME=REF] [--changed-since DATE] ' +
  '[--workers N]';
const args = process.argv.slice(2);
const sources: string[] = [];
const ats: string[] = [];
let manifest: string | undefined;
let changedSince: string | undefined;
let workers = 2;
let repository = 'demo';
for (let index = 0; index < args.length; index++) {
  const arg = args[index] as string;
  const value = args[index + 1];
  if (arg === '--source' && value !== undefined) sources.push(value);
  else if (arg === '--at' && value !== undefined) ats.push(value);
  else if (arg === '--manifest' && value !== undefined) manifest = resolve(value);
  else if (arg === '--changed-since' && value !== undefined) changedSince = new Date(value).toISOString();
  else if (arg === '--workers' && value !== undefined) workers = Number(value);
  else if (!arg.startsWith('--')) {
    repository = arg;
    continue;
  } else {
    console.error(USAGE);
    process.exit(2);
  }
  index++;
}

const folder = mkdtempSync(join(projectRoot, 'out', 'bench-cold-'));
const written =
  manifest ??
  join(projectRoot, repository === 'demo' ? 'datasets/demo/manifest.yaml' : 'datasets/repocod/manifest.yaml');
const entry = loadManifest(written).repositories.find((item) => item.name === repository);
if (entry === undefined) {
  console.error(`${written}: no repository named ${repository}`);
  process.exit(2);
}
const k = validateRunsOf(entry, undefined);

/** The manifest with the entry (and each of its variants) set to rerun only the relevant tests, k times in all. */
function relevantManifest(): string {
  const document = parseDocument(readFileSync(written, 'utf8'));
  const items = document.get('repositories') as {
    items: { get(key: string): unknown; set(k: string, v: unknown): void }[];
  };
  const item = items.items.find((candidate) => candidate.get('name') === repository);
  if (item === undefined) throw new Error(`${written}: no repository named ${repository}`);
  const settings = [item, ...((item.get('variants') as { items?: typeof items.items } | undefined)?.items ?? [])];
  for (const target of settings) {
    target.set('baseline_runs', k);
    target.set('baseline_reruns', 'relevant');
  }
  const path = join(folder, 'manifest-relevant.yaml');
  // A `source:` path is read from the project root, wherever the manifest is.
  writeFileSync(path, document.toString());
  return path;
}

const common = { projectRoot, repositories: [repository], sources, ats, workers, changedSince };
// The environment and worktrees first, outside the measure (both runs share them).
await prepareStep(repository, { projectRoot, sources, ats, workers, manifest: written });

interface Measured {
  readonly label: string;
  readonly result: FlowResult;
  readonly wallSeconds: number;
  readonly release: string;
}

async function measure(label: string, manifestPath: string | undefined): Promise<Measured> {
  const catalog = await openCatalog(join(folder, `${label}.duckdb`));
  const release = join(folder, `release-${label}`);
  const started = performance.now();
  try {
    const result = await runFlow(catalog, { ...common, manifest: manifestPath, out: release });
    return { label, result, wallSeconds: (performance.now() - started) / 1000, release };
  } finally {
    await catalog.close();
  }
}

const before = await measure('suite', written);
const after = await measure('relevant', relevantManifest());

for (const run of [before, after]) {
  console.log(`\n${run.label}: ${run.result.ok ? 'ok' : 'FAILED'} in ${run.wallSeconds.toFixed(1)} s wall`);
  for (const line of costTable(run.result.cost)) console.log(line);
}

const total = (cost: BuildCost, pick: (phase: PhaseCost) => number): number =>
  cost.phases.reduce((sum, phase) => sum + pick(phase), 0);
const executions = [before, after].map((run) => total(run.result.cost, (phase) => phase.testExecutions));
const busy = [before, after].map((run) => total(run.result.cost, (phase) => phase.busySeconds));
const suite = Object.values(before.result.cost.suiteTests)[0];
console.log(`\ncompared (k = ${k})   suite (baseline)   relevant   ratio`);
console.log(
  `test executions     ${String(executions[0]).padStart(16)}   ${String(executions[1]).padStart(8)}   ` +
    `${((executions[0] as number) / Math.max(1, executions[1] as number)).toFixed(2)}x`,
);
const suites = executions.map((count) => wholeSuites(count, suite)?.toFixed(2) ?? '-');
console.log(`whole suites        ${String(suites[0]).padStart(16)}   ${String(suites[1]).padStart(8)}`);
const [busySuite, busyRelevant] = busy as [number, number];
console.log(
  `busy seconds        ${busySuite.toFixed(1).padStart(16)}   ${busyRelevant.toFixed(1).padStart(8)}   ` +
    `${(busySuite / Math.max(0.1, busyRelevant)).toFixed(2)}x`,
);
console.log(
  `wall seconds        ${before.wallSeconds.toFixed(1).padStart(16)}   ${after.wallSeconds.toFixed(1).padStart(8)}   ` +
    `${(before.wallSeconds / after.wallSeconds).toFixed(2)}x`,
);

/** The validated tasks of a run: instance id → its verdict and FAIL_TO_PASS, as its validation.jsonl writes them. */
function validatedTasks(run: Measured): Map<string, string> {
  const version = run.result.release?.version ?? '1.0';
  const lines = readFileSync(join(run.release, version, 'validation.jsonl'), 'utf8')
    .trim()
    .split('\n');
  return new Map(
    lines.map((line) => {
      const task = JSON.parse(line) as { instance_id: string; status: string; fail_to_pass_validated: unknown };
      return [task.instance_id, JSON.stringify([task.status, task.fail_to_pass_validated])];
    }),
  );
}
const [a, b] = [validatedTasks(before), validatedTasks(after)];
const differ = [...new Set([...a.keys(), ...b.keys()])].filter((id) => a.get(id) !== b.get(id));
console.log(
  `validated tasks     ${String(a.size).padStart(16)}   ${String(b.size).padStart(8)}   ` +
    (differ.length === 0
      ? 'identical: the same verdicts and FAIL_TO_PASS'
      : `${differ.length} differ: ${differ.join(', ')}`),
);
