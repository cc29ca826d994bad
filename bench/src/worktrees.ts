/**
 * `pnpm bench:worktrees [--repo NAME [--manifest FILE] [--source NAME=PATH]] [--worktrees N] [--trials T]`:
 * what it costs to give N fresh worktrees of a compiled project working extensions, two ways, in the
 * same run and alternated: copying the environment's build artefacts into each (what the runner does,
 * build-artefacts.ts), or building in place in each with the manifest's build_in_place. Both start
 * from the same built environment (built first if it is missing, and reported), and the worktrees'
 * creation is outside both timings. Default: the compiled fixture (one C extension) and 2 worktrees;
 * `--repo astropy --source astropy=PATH` measures a real one.
 */
import { closeSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { findBuildArtefacts, packageImportFolders, shareBuildArtefacts } from '@repocod/runner';
import { ensureCheckout } from '@repocod/runner';
import { ensureEnvironment } from '@repocod/runner';
import { runLoggedCommand } from '@repocod/runner';
import { findUv } from '@repocod/runner';
import { git } from '@repocod/runner';
import { loadManifest } from '@repocod/runner';
import { manifestEntry } from '@repocod/runner';
import { applySourceOverrides } from '@repocod/runner';
import { testEnvironment } from '@repocod/runner';
import type { Worktree } from '@repocod/runner';
import { ensureWorktrees } from '@repocod/runner';
import { projectPackages } from '@repocod/runner';

const projectRoot = resolve(new URL('../..', import.meta.url).pathname);
const stateRoot = join(projectRoot, '.repocod');
const scratch = mkdtempSync(join(tmpdir(), 'repocod-bench-worktrees-'));

function option(name: string): string[] {
  return process.argv.flatMap((argument, index) => (argument === `--${name}` ? [process.argv[index + 1] ?? ''] : []));
}

const repository = option('repo')[0] ?? 'compiled-fixture';
const defaultManifest = option('repo').length === 0 ? 'datasets/compiled-fixture' : 'datasets/repocod';
const manifestFile = option('manifest')[0] ?? join(projectRoot, defaultManifest, 'manifest.yaml');
const entry = manifestEntry(applySourceOverrides(loadManifest(manifestFile), option('source')), repository);
const count = Number(option('worktrees')[0] ?? '2');
const trials = Number(option('trials')[0] ?? '2');
if (entry.buildInPlace === undefined) {
  console.error(`${entry.name} has no build_in_place in ${manifestFile}: there is nothing to compare sharing with`);
  process.exit(2);
}

const checkout = await ensureCheckout(entry, { reposRoot: join(stateRoot, 'repos'), projectRoot });
const envStarted = performance.now();
const uv = await findUv(undefined, join(stateRoot, 'envs'));
const environment = await ensureEnvironment(entry, checkout.path, {
  envsRoot: join(stateRoot, 'envs'),
  baseCommit: checkout.baseCommit,
  commitTimestamp: checkout.commitTimestamp,
  uv: uv?.path ?? null,
});
const envSeconds = (performance.now() - envStarted) / 1000;
const projectDir = join(checkout.path, entry.packageRoot);
const packages = projectPackages(projectDir);
const folders = await packageImportFolders(
  environment.python,
  packages.map((pkg) => pkg.name),
  entry.env,
);
const artefacts = await findBuildArtefacts(projectDir, packages, folders);
const megabytes = artefacts.files.reduce((sum, file) => sum + file.bytes, 0) / 1e6;
console.log(`${entry.name} at ${checkout.baseCommit.slice(0, 12)}: environment ready in ${envSeconds.toFixed(1)} s`);
console.log(`  build artefacts: ${artefacts.files.length} file(s), ${megabytes.toFixed(1)} MB`);
console.log(`  ${count} worktree(s) per trial, ${trials} trial(s)`);
if (artefacts.files.length === 0) {
  console.error(`${entry.name}: no build artefacts where its environment imports it from; not a compiled project here`);
  process.exit(2);
}

async function freshWorktrees(label: string): Promise<Worktree[]> {
  return ensureWorktrees(checkout, count, join(scratch, label));
}

async function dropWorktrees(worktrees: readonly Worktree[]): Promise<void> {
  for (const worktree of worktrees) await git(checkout.path, ['worktree', 'remove', '--force', worktree.path]);
}

async function share(worktrees: readonly Worktree[]): Promise<number> {
  const started = performance.now();
  for (const worktree of worktrees) await shareBuildArtefacts(worktree, entry.packageRoot, artefacts, true);
  return (performance.now() - started) / 1000;
}

async function buildEach(worktrees: readonly Worktree[]): Promise<number> {
  const started = performance.now();
  for (const worktree of worktrees) {
    const dir = join(worktree.path, entry.packageRoot);
    const logFd = openSync(`${worktree.path}.build.log`, 'w');
    const command = entry.buildInPlace ?? '';
    const env = testEnvironment({ python: environment.python, projectDir: dir, env: entry.env });
    const result = await runLoggedCommand(
      { display: command, file: 'bash', args: ['-e', '-c', command] },
      { cwd: dir, env, logFd, timeoutMs: 3 * 3600_000 },
    );
    closeSync(logFd);
    if (result.exitCode !== 0) throw new Error(`${command} failed in ${dir} (log: ${worktree.path}.build.log)`);
  }
  return (performance.now() - started) / 1000;
}

const timings = { share: [] as number[], build: [] as number[] };
try {
  for (let trial = 0; trial < trials; trial++) {
    // Alternated, so that neither way always runs on a warmer page cache.
    const order = trial % 2 === 0 ? (['share', 'build'] as const) : (['build', 'share'] as const);
    for (const way of order) {
      const worktrees = await freshWorktrees(`${way}-${trial}`);
      const seconds = way === 'share' ? await share(worktrees) : await buildEach(worktrees);
      timings[way].push(seconds);
      console.error(`  trial ${trial + 1}: ${way} ${seconds.toFixed(2)} s`);
      await dropWorktrees(worktrees);
    }
  }
} finally {
  await git(checkout.path, ['worktree', 'prune']);
  rmSync(scratch, { recursive: true, force: true });
}

const best = (values: readonly number[]): number => Math.min(...values);
const all = (values: readonly number[]): string => values.map((seconds) => seconds.toFixed(2)).join(', ');
const line = (what: string, values: readonly number[]): string =>
  `  ${what}: best ${best(values).toFixed(2)} s (${all(values)})`;
console.log(line(`copy the shared build into ${count} worktree(s)`, timings.share));
console.log(line(`build in place in each of ${count} worktree(s) `, timings.build));
console.log(`  ratio build/share: ${(best(timings.build) / Math.max(best(timings.share), 1e-3)).toFixed(1)}x`);
