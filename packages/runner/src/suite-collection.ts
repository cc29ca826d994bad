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
  /**
   * Why pytest stopped before it collected anything (a plugin of the configuration it cannot import, an option no
   * plugin adds), from its output: the last line that says an error; null when it started.
   */
  readonly startError: string | null;
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
  const started = run.status === 'ok' || collected > 0 || errors.length > 0;
  return {
    collected,
    errors,
    seconds: run.durationSeconds,
    startError: started ? null : startErrorOf(run.log),
    log: run.log,
  };
}

/**
 * The line of pytest's output that says why it did not start: argparse's `error: unrecognized arguments: …`
 * (with the configuration file pytest read), else the last exception (`ImportError: Error importing plugin …`).
 */
function startErrorOf(log: string): string {
  const lines = log.split('\n').map((line) => line.trim());
  const last = (pattern: RegExp): string | undefined => [...lines].reverse().find((line) => pattern.test(line));
  const usage = last(/: error: /);
  if (usage !== undefined) {
    const inifile = last(/^inifile: /);
    return inifile === undefined ? usage : `${usage} (${inifile})`;
  }
  return (
    last(/^[A-Za-z_.]*(Error|Exception)\b.*:/) ??
    last(/^ERROR:/) ??
    `pytest exited without collecting (its last line: ${last(/./) ?? 'none'})`
  );
}
/** The line of a collection error's traceback that says what failed: its last `SomethingError: …` line. */
function reasonOf(message: string): string {
  const lines = message.split('\n').map((line) => line.replace(/^E\s+/, '').trim());
  const error = [...lines].reverse().find((line) => /^[A-Za-z_.]*(Error|Exception|Exit)\b.*:/.test(line));
  return error ?? lines.find((line) => line !== '') ?? 'no message';
}
