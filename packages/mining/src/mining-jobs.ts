import { join } from 'node:path';
import type { PreparedRepository, RunJob } from '@repocod/runner';
import { catalogName, listTestFiles, shardTimeoutSeconds } from '@repocod/runner';
import type { MutationEntry } from './harness-plans.js';
import { mutationPlan } from './harness-plans.js';
import type { MiningTracebacks } from './mine-options.js';
import type { MutationTarget } from './mutation-target.js';

/** What a mining job says of itself: the repository, the pytest arguments and (by default) no patch are mining's. */
type JobFields = Omit<RunJob, 'repository' | 'patches' | 'pytestArgs'>;

/**
 * The runner jobs mining builds, each field in its place (a job's hash and the memory store's key are made from
 * them): the reference runs at the base commit and the runs with a mutation.
 */
export class MiningJobs {
  private readonly pytestArgs: readonly string[];
  private readonly mutationArgs: readonly string[];
  private suiteLimit: number | undefined;

  constructor(
    private readonly prepared: PreparedRepository,
    tracebacks: MiningTracebacks = 'native',
  ) {
    // Every mining run: a module that fails to collect must not stop the others, and a test that
    // hangs under a mutation fails alone instead of taking its whole run down (pytest-timeout).
    this.pytestArgs = ['--continue-on-collection-errors', `--timeout=${prepared.entry.timeoutSeconds}`];
    this.mutationArgs = [...this.pytestArgs, ...(tracebacks === 'native' ? ['--tb=native'] : [])];
  }

  /** The repository's catalog name: an era's own (catalog-name.ts), as every job of the repository names it. */
  private get repository(): string {
    return catalogName(this.prepared.entry);
  }

  /** The manifest's limit of one test (pytest-timeout's), and of a job per test file of it. */
  get testTimeoutSeconds(): number {
    return this.prepared.entry.timeoutSeconds;
  }

  /** A run at the base commit: a baseline run or the coverage run (or a rerun of some of its tests). */
  reference(job: JobFields): RunJob {
    return { repository: this.repository, patches: [], pytestArgs: this.pytestArgs, ...job };
  }

  /** A mutation run (patched, or driven by the in-process plugin). */
  mutation(job: JobFields & { patches?: readonly string[] }): RunJob {
    return { repository: this.repository, patches: [], pytestArgs: this.mutationArgs, ...job };
  }

  /** The tests given, in a fresh process with the mutation patched into the file. */
  freshProcess(target: MutationTarget, tests: readonly string[]): RunJob {
    return this.mutation({ patches: [target.patch], tests });
  }

  /** The whole suite with the mutation in the file: REPOCOD's method. */
  wholeSuite(target: MutationTarget): RunJob {
    return this.mutation({ patches: [target.patch], tests: 'all', timeoutSeconds: this.suiteTimeoutSeconds() });
  }

  /** The whole suite collected with the mutation in the file, the collected node ids as its artifact. */
  collect(target: MutationTarget): RunJob {
    return {
      repository: this.repository,
      patches: [target.patch],
      pytestArgs: [...this.pytestArgs, '--collect-only', '-q'],
      tests: 'all',
      plugins: ['repocod_collect'],
      timeoutSeconds: this.suiteTimeoutSeconds(),
    };
  }

  /** An in-process batch: each target's mutation swapped in, in turn, for its candidate tests. */
  batch(batch: readonly MutationEntry[]): RunJob {
    const tests = [...new Set(batch.flatMap((entry) => entry.candidates))].sort();
    return this.mutation({
      tests,
      plugins: ['repocod_mutate'],
      pluginInput: mutationPlan(this.prepared.entry.packageRoot, batch),
      timeoutSeconds: this.prepared.entry.timeoutSeconds * Math.max(1, batch.length),
    });
  }

  /**
   * The limit of a whole-suite mutation run: what the shards of the suite get together (a shard's
   * limit per file), since the manifest's timeout is REPOCOD's limit for one task's tests. Read once a run.
   */
  private suiteTimeoutSeconds(): number {
    if (this.suiteLimit !== undefined) return this.suiteLimit;
    const { entry } = this.prepared;
    const files = listTestFiles(join(this.prepared.checkout.path, entry.packageRoot), entry.testRoots);
    this.suiteLimit = shardTimeoutSeconds(
      { files: files.map((file) => file.path), rest: true, cost: 0 },
      entry.timeoutSeconds,
    );
    return this.suiteLimit;
  }
}
