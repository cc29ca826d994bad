import { closeSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { contentHash } from '@repocod/core';
import { compiledSourcesOf, shareBuildArtefacts } from './build-artefacts.js';
import { runLoggedCommand } from './environment-command.js';
import type { PreparedRepository } from './prepare-repository.js';
import type { HarnessPlugin, PytestRun } from './pytest-job.js';
import { runPytest, testEnvironment } from './pytest-job.js';
import type { Worktree } from './worktrees.js';
import { applyPatches, resetWorktree } from './worktrees.js';

/** A unit of work for the runner: tests of one repository, on the base commit plus patches. */
export interface RunJob {
  readonly repository: string;
  /** Unified diffs applied in order with `git apply`. */
  readonly patches: readonly string[];
  /** Node ids, or the whole suite under the manifest's test roots. */
  readonly tests: readonly string[] | 'all';
  /**
   * With tests 'all', one shard of the suite (see splitSuite): these test files (relative to the
   * package root) instead of the test roots, or, with `ignore`, the test roots without those files.
   */
  readonly paths?: readonly string[];
  readonly ignore?: readonly string[];
  /** Defaults to the manifest's timeout. */
  readonly timeoutSeconds?: number;
  /** Runs of the same tests, to tell flaky tests (default 1). */
  readonly repeat?: number;
  /** pytest arguments after the manifest's own. */
  readonly pytestArgs?: readonly string[];
  /** The runner's harness plugins to load, and the input they read (see HarnessPlugin). */
  readonly plugins?: readonly HarnessPlugin[];
  readonly pluginInput?: string;
}

export interface JobResult {
  readonly job: RunJob;
  readonly jobHash: string;
  /** `patch-error` when a patch did not apply (then no run was made); else the runs' own statuses. */
  readonly patchError: string | null;
  readonly runs: readonly PytestRun[];
  readonly worker: number;
}

/**
 * What makes two jobs the same job: the repository at its commit, its environment, the patches and
 * the tests (as a set: order does not change results), the timeout and the repeat count.
 */
export function jobHash(
  job: RunJob,
  repository: Pick<PreparedRepository, 'checkout' | 'environment' | 'entry'>,
): string {
  return contentHash(
    JSON.stringify({
      repository: job.repository,
      baseCommit: repository.checkout.baseCommit,
      environment: repository.environment.key,
      patches: job.patches.map((patch) => contentHash(patch)),
      tests: job.tests === 'all' ? 'all' : [...job.tests].sort(),
      // Absent (undefined) for a job that is not a shard, so that such jobs keep their earlier hashes.
      paths: job.paths,
      ignore: job.ignore,
      timeout: job.timeoutSeconds ?? repository.entry.timeoutSeconds,
      repeat: job.repeat ?? 1,
      pytestArgs: job.pytestArgs ?? [],
      plugins: job.plugins ?? [],
      pluginInput: job.pluginInput === undefined ? null : contentHash(job.pluginInput),
    }),
  );
}

/**
 * Runs one job in one worktree and leaves the worktree clean for the next job. A patch that changes a
 * compiled source (a .pyx, a .c) makes the shared extensions stale: the worktree builds in place with
 * the manifest's build_in_place first, and gets the shared copies back afterwards.
 */
export async function runJob(job: RunJob, repository: PreparedRepository, worktree: Worktree): Promise<JobResult> {
  const hash = jobHash(job, repository);
  const applied = await applyPatches(worktree, job.patches);
  if (!applied.ok) return { job, jobHash: hash, patchError: applied.message, runs: [], worker: worktree.index };
  const compiled = repository.artefacts.files.length > 0 ? compiledSourcesOf(job.patches) : [];
  try {
    if (compiled.length > 0) {
      const buildError = await buildInPlace(repository, worktree, compiled);
      if (buildError !== null) return { job, jobHash: hash, patchError: buildError, runs: [], worker: worktree.index };
    }
    const { entry, environment } = repository;
    const runs: PytestRun[] = [];
    for (let attempt = 0; attempt < (job.repeat ?? 1); attempt++) {
      runs.push(
        await runPytest({
          python: environment.python,
          projectDir: join(worktree.path, entry.packageRoot),
          tests: job.tests,
          testRoots: job.tests === 'all' && job.paths !== undefined ? job.paths : entry.testRoots,
          ignore: job.ignore,
          pytestArgs: entry.pytestArgs,
          deselect: entry.deselect.map((test) => test.id),
          env: entry.env,
          timeoutSeconds: job.timeoutSeconds ?? entry.timeoutSeconds,
          extraArgs: job.pytestArgs,
          plugins: job.plugins,
          pluginInput: job.pluginInput,
        }),
      );
    }
    return { job, jobHash: hash, patchError: null, runs, worker: worktree.index };
  } finally {
    await resetWorktree(worktree);
    if (compiled.length > 0) {
      await shareBuildArtefacts(worktree, repository.entry.packageRoot, repository.artefacts, true);
    }
  }
}

/**
 * Builds the worktree's extensions in place after a patch to `compiled`, logged to
 * `<worktree>.build.log`; the problem as text, or null.
 */
async function buildInPlace(
  repository: PreparedRepository,
  worktree: Worktree,
  compiled: readonly string[],
): Promise<string | null> {
  const { entry, environment } = repository;
  const what = `the patch changes compiled source(s) ${compiled.join(', ')}`;
  if (entry.buildInPlace === undefined) {
    return (
      `${what}, and ${entry.name}'s manifest entry gives no build_in_place command to rebuild the ` +
      'worktree\'s extensions (e.g. build_in_place: "python setup.py build_ext --inplace"); without it the ' +
      'tests would run the old build'
    );
  }
  const projectDir = join(worktree.path, entry.packageRoot);
  const logFile = `${worktree.path}.build.log`;
  const logFd = openSync(logFile, 'w');
  const lines: string[] = [];
  try {
    const result = await runLoggedCommand(
      { display: entry.buildInPlace, file: 'bash', args: ['-e', '-c', entry.buildInPlace] },
      {
        cwd: projectDir,
        env: testEnvironment({ python: environment.python, projectDir, env: entry.env }),
        logFd,
        timeoutMs: entry.timeoutSeconds * 1000,
        onLog: (line) => lines.push(line),
      },
    );
    if (result.exitCode === 0) return null;
    const how = result.timedOut
      ? `timed out after ${entry.timeoutSeconds} s`
      : (result.startError ?? `exited with ${result.exitCode ?? result.signal}`);
    // Not tailLines: these are the lines the command runner emitted, and re-cutting them as one text would split the
    // `$ command` line of a build_in_place command that has more than one line.
    const tail = lines.slice(-15).join('\n');
    return `${what}; the in-place build (${entry.buildInPlace}) ${how} (log: ${logFile}):\n${tail}`;
  } finally {
    closeSync(logFd);
  }
}

/**
 * The run ids a job's result is stored under in the catalog, `<job hash>:<attempt>` (one for a patch
 * that did not apply): where validation's verdicts point to their evidence.
 */
export function jobRunIds(result: Pick<JobResult, 'jobHash' | 'patchError' | 'runs'>): string[] {
  if (result.patchError !== null) return [`${result.jobHash}:1`];
  return result.runs.map((_, index) => `${result.jobHash}:${index + 1}`);
}
