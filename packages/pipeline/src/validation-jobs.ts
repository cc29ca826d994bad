import { contentHash } from '@repocod/core';
import type { RunJob } from '@repocod/runner';

/** The three checks of a task, in the order the issue of record names them. */
export type ValidationCheck = 'collects' | 'fails-without-body' | 'passes-with-gold';

export const VALIDATION_CHECKS: readonly ValidationCheck[] = ['collects', 'fails-without-body', 'passes-with-gold'];

/** What validation needs of a task: its patches and its tests. */
export interface ValidatedTask {
  readonly instanceId: string;
  readonly repository: string;
  readonly baseCommit: string;
  readonly preCode: string;
  readonly preTest: string;
  readonly goldCode: string;
  readonly goldTest: string;
  readonly failToPass: readonly string[];
}

const applicable = (patches: readonly string[]): string[] => patches.filter((patch) => patch !== '');

/**
 * The pre state P = base + pre.code + pre.test, collected as a whole suite. The tasks stage runs this
 * very job as its collect check, so validation finds its runs in the catalog.
 */
export function preStateCollectJob(task: Pick<ValidatedTask, 'repository' | 'preCode' | 'preTest'>): RunJob {
  return { repository: task.repository, patches: applicable([task.preCode, task.preTest]), tests: 'all', pytestArgs: ['--collect-only', '-q'] };
}

/**
 * The jobs of the three checks: P collects; P + gold.test, where every FAIL_TO_PASS test must fail
 * (collection errors do not stop the other files, so each missing test is told apart); P + gold.test
 * + gold.code, k runs, run as the original evaluation runs it (plain pytest on the node ids).
 */
export function validationJobs(task: ValidatedTask, repeat: number, timeoutSeconds?: number): Record<ValidationCheck, RunJob> {
  const withTests = applicable([task.preCode, task.preTest, task.goldTest]);
  const timeout = timeoutSeconds === undefined ? {} : { timeoutSeconds };
  return {
    collects: { ...preStateCollectJob(task), ...timeout },
    'fails-without-body': { repository: task.repository, patches: withTests, tests: task.failToPass, pytestArgs: ['--continue-on-collection-errors'], ...timeout },
    'passes-with-gold': { repository: task.repository, patches: applicable([...withTests, task.goldCode]), tests: task.failToPass, repeat, ...timeout },
  };
}

/** Names a task's content: a task rebuilt with other patches or tests is another task to validate. */
export function taskHash(task: ValidatedTask): string {
  return contentHash(
    JSON.stringify({
      instanceId: task.instanceId,
      baseCommit: task.baseCommit,
      patches: [task.preCode, task.preTest, task.goldCode, task.goldTest].map((patch) => contentHash(patch)),
      failToPass: [...task.failToPass].sort(),
    }),
  );
}
