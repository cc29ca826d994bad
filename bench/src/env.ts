/**
 * `pnpm bench:env [--repo NAME [--manifest FILE] [--source NAME=PATH]]`: the same recipe built with uv
 * and with venv + pip, in the same run, each from an empty package cache (cold) and again with the
 * cache the first build filled (warm), alternated so that neither installer gains from going second.
 * Prints each build's wall time and package count and the pip/uv ratios.
 *
 * By default the recipe is a fixed, fully pinned set of our own (sphinx, pandas, matplotlib, pytest and
 * what they pull in), undated, so both installers install exactly the same versions. With --repo the
 * recipe is that repository's, at its base commit: uv resolves it as of the commit's day and pip
 * undated, so the two sets may differ (the bench says by how many packages).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ensureCheckout } from '@repocod/runner';
import { ensureEnvironment, type Environment } from '@repocod/runner';
import { findUv } from '@repocod/runner';
import { loadManifest, type ManifestEntry } from '@repocod/runner';
import { manifestEntry } from '@repocod/runner';
import { applySourceOverrides } from '@repocod/runner';

const projectRoot = resolve(new URL('../..', import.meta.url).pathname);
const scratch = mkdtempSync(join(tmpdir(), 'repocod-bench-env-'));
process.on('exit', () => rmSync(scratch, { recursive: true, force: true }));

const PINNED_RECIPE = ['sphinx==8.0.2', 'pandas==2.2.2', 'matplotlib==3.9.2', 'pytest==8.3.3'];

function option(name: string): string[] {
  return process.argv.flatMap((argument, index) => (argument === `--${name}` ? [process.argv[index + 1] ?? ''] : []));
}

async function subject(): Promise<{
  entry: ManifestEntry;
  checkout: string;
  baseCommit?: string;
  commitTimestamp?: string;
}> {
  const [repository] = option('repo');
  if (repository === undefined) {
    const checkout = join(scratch, 'pinned-project');
    mkdirSync(checkout);
    writeFileSync(join(checkout, 'README'), 'a project that only installs the pinned set\n');
    const demo = loadManifest(join(projectRoot, 'datasets/demo/manifest.yaml')).repositories[0] as ManifestEntry;
    return {
      entry: { ...demo, name: 'bench-pinned', install: [{ pip: PINNED_RECIPE }], excludeNewer: 'none' },
      checkout,
    };
  }
  const manifestFile = option('manifest')[0] ?? join(projectRoot, 'datasets/repocod/manifest.yaml');
  const manifest = applySourceOverrides(loadManifest(manifestFile), option('source'));
  const entry = manifestEntry(manifest, repository);
  const checkout = await ensureCheckout(entry, { reposRoot: join(projectRoot, '.repocod', 'repos'), projectRoot });
  return { entry, checkout: checkout.path, baseCommit: checkout.baseCommit, commitTimestamp: checkout.commitTimestamp };
}

const { entry, checkout, baseCommit, commitTimestamp } = await subject();
const uv = await findUv(undefined, join(projectRoot, '.repocod', 'envs'));
if (uv === null) {
  console.error('bench:env needs uv: run scripts/setup.sh (it installs uv 0.13.9 into .repocod/tools/py)');
  process.exit(2);
}

interface Build {
  readonly installer: 'uv' | 'pip';
  readonly cache: 'cold' | 'warm';
  readonly seconds: number;
  readonly environment: Environment;
}

const caches = { uv: join(scratch, 'uv-cache'), pip: join(scratch, 'pip-cache') };
async function build(installer: 'uv' | 'pip', cache: 'cold' | 'warm'): Promise<Build> {
  if (cache === 'cold') rmSync(caches[installer], { recursive: true, force: true });
  // Each installer's cache in a folder of the bench's own: cold is an empty one, warm the one the cold build filled.
  process.env.UV_CACHE_DIR = caches.uv;
  process.env.PIP_CACHE_DIR = caches.pip;
  const envsRoot = join(scratch, `envs-${installer}-${cache}`);
  const started = performance.now();
  const environment = await ensureEnvironment(entry, checkout, {
    envsRoot,
    uv: installer === 'uv' ? uv?.path : null,
    fresh: true,
    baseCommit,
    commitTimestamp,
  });
  const seconds = (performance.now() - started) / 1000;
  rmSync(envsRoot, { recursive: true, force: true });
  return { installer, cache, seconds, environment };
}

const builds: Build[] = [];
for (const [installer, cache] of [
  ['uv', 'cold'],
  ['pip', 'cold'],
  ['pip', 'warm'],
  ['uv', 'warm'],
] as const) {
  const done = await build(installer, cache);
  builds.push(done);
  console.error(`  ${installer} ${cache}: ${done.seconds.toFixed(1)} s`);
}
const find = (installer: 'uv' | 'pip', cache: 'cold' | 'warm'): Build =>
  builds.find((b) => b.installer === installer && b.cache === cache) as Build;
const uvSet = new Set(find('uv', 'cold').environment.packages);
const pipSet = new Set(find('pip', 'cold').environment.packages);
const differing = [...uvSet].filter((p) => !pipSet.has(p)).length + [...pipSet].filter((p) => !uvSet.has(p)).length;

console.log(
  `recipe        ${entry.name}: ${entry.install.length} step(s); ${uv.version}; python ` +
    `${find('uv', 'cold').environment.pythonVersion}`,
);
for (const b of builds) {
  console.log(
    `${`${b.installer} ${b.cache}`.padEnd(13)} ${b.seconds.toFixed(1).padStart(6)} s, ` +
      `${b.environment.packages.length} ` +
      `packages, resolved ${b.environment.resolvedAsOf ?? 'undated'}`,
  );
}
console.log(`ratio cold    pip/uv ${(find('pip', 'cold').seconds / find('uv', 'cold').seconds).toFixed(2)}x`);
console.log(`ratio warm    pip/uv ${(find('pip', 'warm').seconds / find('uv', 'warm').seconds).toFixed(2)}x`);
console.log(
  `package sets  ${differing === 0 ? 'identical' : `${differing} package version(s) differ (uv dated, pip undated)`}`,
);
