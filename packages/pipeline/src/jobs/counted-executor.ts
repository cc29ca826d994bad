import { RepocodError } from '@repocod/core';
import type { Executor, ExecutorFactory, RunJob } from '@repocod/runner';
import { catalogName } from '@repocod/runner';

/**
 * The jobs a rebuild's stages hand to the runner, counted per stage and repository. The stages look each
 * job up in the catalog first and pass on only what it does not answer, so every job counted here is one
 * the restored checkpoints did not answer. A rebuild that must run nothing (`allowRuns` false) refuses
 * the first batch that reaches it, naming each of its jobs (UnansweredJobsError), before anything runs.
 */
export class JobCounter {
  /** `stage/repository` → jobs run. */
  readonly counts = new Map<string, number>();
  stage = 'rebuild';

  constructor(private readonly allowRuns: boolean) {}

  total(): number {
    return [...this.counts.values()].reduce((sum, count) => sum + count, 0);
  }

  wrap(inner: ExecutorFactory): ExecutorFactory {
    return (repository) => {
      const executor = inner(repository);
      const counted: Executor = {
        parallelism: executor.parallelism,
        run: (jobs, onEvent) => {
          if (jobs.length > 0 && !this.allowRuns)
            throw new UnansweredJobsError(this.stage, catalogName(repository.entry), jobs.map(describeJob));
          const key = `${this.stage}/${catalogName(repository.entry)}`;
          this.counts.set(key, (this.counts.get(key) ?? 0) + jobs.length);
          return executor.run(jobs, onEvent);
        },
      };
      return counted;
    };
  }
}

/** Jobs a rebuild would have to run that its checkpoints do not answer. */
export class UnansweredJobsError extends RepocodError {
  constructor(
    readonly stage: string,
    readonly repository: string,
    readonly jobs: readonly string[],
  ) {
    const shown = jobs.slice(0, 10).map((job) => `  - ${job}`);
    const more = jobs.length > shown.length ? [`  … and ${jobs.length - shown.length} more`] : [];
    super(
      'rebuild-differs',
      [
        `${stage} of ${repository}: ${jobs.length} job(s) the checkpoints do not answer; nothing was run:`,
        ...shown,
        ...more,
        'Run again with --allow-runs to run them (the release may then differ), or restore the checkpoints',
        'it was built from (the release manifest names their digests).',
      ].join('\n'),
    );
  }
}

/** One line for people: which tests, on how many patches, with which pytest arguments. */
export function describeJob(job: RunJob): string {
  const tests =
    job.tests === 'all'
      ? `the suite${job.paths === undefined ? '' : ` in ${job.paths.length} file(s) (${job.paths[0] ?? ''}…)`}`
      : `${job.tests.length} test(s) (${job.tests[0] ?? ''}${job.tests.length > 1 ? ', …' : ''})`;
  const args = (job.pytestArgs ?? []).length === 0 ? '' : `, pytest ${(job.pytestArgs ?? []).join(' ')}`;
  const runs = (job.repeat ?? 1) > 1 ? `, ${job.repeat} runs` : '';
  return `${tests} on ${job.patches.length} patch(es)${args}${runs}`;
}
