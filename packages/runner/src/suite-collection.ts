import { join } from 'node:path';
import type { PreparedRepository } from './prepare-repository.js';
import { runPytest } from './pytest-job.js';

/** What one `pytest --collect-only` of the whole suite found: the check of a new entry (`repocod manifest add`). */
export interface SuiteCollection {
  /** Node ids collected. */
  readonly collected: number;
  /** Each module (or folder) that did not collect, with the first line of why (`ModuleNotFoundError: …`). */
  readonly errors: readonly { readonly module: string; readonly reason: string }[];
  readonly seconds: number;
  /** pytest's console output, for a run that collected nothing and reported no error. */
  readonly log: string;
}

/** Collects the suite under the entry's test roots in the first worktree, nothing run and nothing stored. */
export async function collectSuite(prepared: PreparedRepository): Promise<SuiteCollection> {
  const worktree = prepared.worktrees[0];
  if (worktree === undefined) throw new Error(`${prepared.entry.name}: no worktree to collect in`);
  const { entry, environment } = prepared;
  const run = await runPytest({
    python: environment.python,
    projectDir: join(worktree.path, entry.packageRoot),
    tests: 'all',
    testRoots: entry.testRoots,
    pytestArgs: entry.pytestArgs,
    deselect: entry.deselect.map((test) => test.id),
    env: entry.env,
    timeoutSeconds: entry.timeoutSeconds,
    extraArgs: ['--collect-only', '-q', '--continue-on-collection-errors'],
    plugins: ['repocod_collect'],
  });
  const collected = (run.artifact ?? '').split('\n').filter((line) => line.trim() !== '').length;
  const errors = (run.collectionErrors ?? []).map((error) => ({
    module: error.nodeId,
    reason: reasonOf(error.message),
  }));
  return { collected, errors, seconds: run.durationSeconds, log: run.log };
}

/** The line of a collection error's traceback that says what failed: its last `SomethingError: …` line. */
function reasonOf(message: string): string {
  const lines = message.split('\n').map((line) => line.replace(/^E\s+/, '').trim());
  const error = [...lines].reverse().find((line) => /^[A-Za-z_.]*(Error|Exception|Exit)\b.*:/.test(line));
  return error ?? lines.find((line) => line !== '') ?? 'no message';
}
