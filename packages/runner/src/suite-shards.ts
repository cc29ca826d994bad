import { readdirSync, type Stats, statSync } from 'node:fs';
import { join } from 'node:path';
import type { RunJob } from './run-job.js';

/** A test file of the suite, relative to the package root, with its size (the cost guessed without durations). */
export interface SuiteFile {
  readonly path: string;
  readonly bytes: number;
}

/**
 * One part of a whole-suite run. A shard runs its files by path; the `rest` shard instead runs the
 * test roots with every other shard's files ignored, so that whatever pytest collects beyond the
 * listed test files (doctests, files named otherwise) runs too, exactly once over all shards.
 */
export interface SuiteShard {
  /** Its test files, sorted. */
  readonly files: readonly string[];
  readonly rest: boolean;
  /** Estimated cost: seconds of test time when durations were known, else bytes of test code. */
  readonly cost: number;
}

export interface SplitOptions {
  /** Workers of the pool: at least this many shards when there are enough files. */
  readonly workers: number;
  /** At most this many files per shard, so that no shard holds a big suite (default DEFAULT_SHARD_FILES). */
  readonly filesPerShard?: number;
  /** Seconds per test file from earlier runs; when given, shards are balanced by them instead of by size. */
  readonly durations?: ReadonlyMap<string, number>;
}

/**
 * A shard of ten files is minutes of tests on a big suite: small enough to resume from, large enough to start few
 * processes.
 */
export const DEFAULT_SHARD_FILES = 10;

/** pytest's default test file names (python_files); anything else under the roots runs in the rest shard. */
const TEST_FILE = /^(test_.*|.*_test)\.py$/;
/** Folders that never hold a project's tests. */
const SKIPPED_FOLDERS = new Set(['__pycache__', 'node_modules', '.git', '.tox', '.nox', '.venv', 'venv', 'build']);

/** The test files under the manifest's test roots (folders or files), sorted by path. */
export function listTestFiles(projectDir: string, testRoots: readonly string[]): SuiteFile[] {
  const found = new Map<string, number>();
  const visit = (relative: string, isRoot: boolean): void => {
    let stats: Stats;
    try {
      stats = statSync(join(projectDir, relative));
    } catch {
      return;
    }
    if (stats.isFile()) {
      if (isRoot || TEST_FILE.test(relative.split('/').at(-1) ?? '')) found.set(relative, stats.size);
      return;
    }
    if (!stats.isDirectory()) return;
    for (const entry of readdirSync(join(projectDir, relative), { withFileTypes: true })) {
      if (entry.isSymbolicLink() || entry.name.startsWith('.') || SKIPPED_FOLDERS.has(entry.name)) continue;
      if (entry.isDirectory() || entry.isFile())
        visit(relative === '.' ? entry.name : `${relative.replace(/\/$/, '')}/${entry.name}`, false);
    }
  };
  for (const root of testRoots) visit(root, true);
  return [...found]
    .map(([path, bytes]) => ({ path, bytes }))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * Splits the suite into shards by test file, deterministically: files in path order, the costliest
 * first onto the lightest shard (LPT), so that shards of equal cost end together; at least one shard
 * per worker and at most `filesPerShard` files each. The cheapest shard is the rest shard. Shards come
 * costliest first, so that the pool starts the long ones early.
 */
export function splitSuite(files: readonly SuiteFile[], options: SplitOptions): SuiteShard[] {
  if (files.length === 0) return [{ files: [], rest: true, cost: 0 }];
  const perShard = Math.max(1, options.filesPerShard ?? DEFAULT_SHARD_FILES);
  const count = Math.min(files.length, Math.max(options.workers, Math.ceil(files.length / perShard)));
  const { durations } = options;
  // A file with no known duration still costs its process a little, so that such files spread out.
  const costOf = (file: SuiteFile): number =>
    durations === undefined ? file.bytes : (durations.get(file.path) ?? 0) + 0.01;
  const bins = Array.from({ length: count }, () => ({ cost: 0, files: [] as string[] }));
  const order = [...files].sort((a, b) => costOf(b) - costOf(a) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  for (const file of order) {
    const open = bins.filter((bin) => bin.files.length < perShard);
    const lightest = (open.length > 0 ? open : bins).reduce((best, bin) => (bin.cost < best.cost ? bin : best));
    lightest.cost += costOf(file);
    lightest.files.push(file.path);
  }
  const shards = bins
    .map((bin) => ({ files: bin.files.sort(), cost: bin.cost }))
    .sort((a, b) => b.cost - a.cost || compareFirst(a.files, b.files));
  return shards.map((shard, index) => ({ ...shard, rest: index === shards.length - 1 }));
}

function compareFirst(a: readonly string[], b: readonly string[]): number {
  const x = a[0] ?? '';
  const y = b[0] ?? '';
  return x < y ? -1 : x > y ? 1 : 0;
}

/** What a whole-suite job runs for shard `index` (a split of one shard is the whole suite: no fields). */
export function shardSelection(shards: readonly SuiteShard[], index: number): Pick<RunJob, 'paths' | 'ignore'> {
  const shard = shards[index];
  if (shard === undefined || shards.length === 1) return {};
  if (!shard.rest) return { paths: shard.files };
  return { ignore: shards.flatMap((other, at) => (at === index ? [] : other.files)) };
}

/**
 * A shard's job limit: the manifest's timeout (REPOCOD's limit for one task's tests) for each of its
 * files, one more for the rest shard. It is a backstop for a run that hangs outside any test; a test
 * that hangs is stopped by pytest-timeout at the manifest's timeout, and the shard goes on.
 */
export function shardTimeoutSeconds(shard: SuiteShard, timeoutSeconds: number): number {
  return timeoutSeconds * Math.max(1, shard.files.length + (shard.rest ? 1 : 0));
}

/** The label of a shard in progress lines and problems: its first and last file. */
export function describeShard(shard: SuiteShard): string {
  const first = shard.files[0];
  const rest = shard.rest ? ' + the rest of the test roots' : '';
  if (first === undefined) return 'the test roots';
  return `${shard.files.length} file(s) ${first}${
    shard.files.length > 1 ? ` … ${shard.files.at(-1) ?? ''}` : ''
  }${rest}`;
}
