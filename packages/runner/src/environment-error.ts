import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { RepocodError, type RepocodErrorCode, tailLines } from '@repocod/core';

/** The code environment failures carry: an infrastructure failure, neither a missing tool nor a bad manifest. */
export const ENVIRONMENT_ERROR_CODE: RepocodErrorCode = 'environment-failed';

/** How many lines of the log an EnvironmentError quotes. */
export const LOG_TAIL_LINES = 20;

export interface EnvironmentFailure {
  /** The manifest's name for the repository. */
  readonly repository: string;
  /** The command as it was echoed into the log. */
  readonly command: string;
  /** null when the command never started, was killed by a signal or timed out. */
  readonly exitCode: number | null;
  readonly signal: string | null;
  /** Seconds of the timeout that killed it, when one did. */
  readonly timedOutAfterSeconds: number | null;
  /** Why it could not be started (spawn error), when it could not. */
  readonly startError: string | null;
  readonly logFile: string;
  /** The last lines of the log, oldest first. */
  readonly logTail: readonly string[];
  /** True for the manifest's own install commands, false for the runner's venv, seed and harness steps. */
  readonly fromRecipe: boolean;
  /** The installer's own `error: …` line from the command's output, when it printed one. */
  readonly installerSaid?: string | null;
}

/**
 * An environment could not be built. Kept apart from test failures: nothing about the task can be
 * concluded from it. The message is self-contained (command, outcome, log path and the log's tail)
 * because it is often all a user sees of a failed build on a remote worker.
 */
export class EnvironmentError extends RepocodError {
  readonly repository: string;
  readonly command: string;
  readonly exitCode: number | null;
  readonly logFile: string;
  readonly logTail: readonly string[];
  readonly timedOut: boolean;

  constructor(failure: EnvironmentFailure, options?: { cause?: unknown }) {
    super(ENVIRONMENT_ERROR_CODE, environmentFailureMessage(failure), options);
    this.name = 'EnvironmentError';
    this.repository = failure.repository;
    this.command = failure.command;
    this.exitCode = failure.exitCode;
    this.logFile = failure.logFile;
    this.logTail = failure.logTail;
    this.timedOut = failure.timedOutAfterSeconds !== null;
  }
}

export function environmentFailureMessage(failure: EnvironmentFailure): string {
  const outcome =
    failure.startError !== null
      ? `could not be started (${failure.startError})`
      : failure.timedOutAfterSeconds !== null
        ? `was killed after ${failure.timedOutAfterSeconds} s, the per-command timeout (raise commandTimeoutSeconds ` +
          `if ` +
          `the install is just slow)`
        : failure.exitCode !== null
          ? `exited with code ${failure.exitCode}`
          : `was killed by ${failure.signal ?? 'a signal'}`;
  const action = failure.fromRecipe
    ? 'fix the install command in the manifest (or what it reads from the checkout) and run again'
    : "the runner's own step failed: check the network, the package index and the interpreter, then run again";
  const tail =
    failure.logTail.length === 0 ? '  (the log is empty)' : failure.logTail.map((line) => `  | ${line}`).join('\n');
  const installerSaid = failure.installerSaid ?? null;
  const said = installerSaid === null ? '' : ` (${installerSaid})`;
  return (
    `environment of "${failure.repository}" could not be built: \`${failure.command}\` ${outcome}${said}; ${action}. ` +
    `Full log: ${failure.logFile}\nLast ${LOG_TAIL_LINES} lines of the log:\n${tail}`
  );
}

/**
 * The last `count` lines of a file (its lines as tailLines reads a `'file'`), read from its end: a failed scientific
 * build can leave a log of many megabytes, and only its end says why.
 */
export function readLogTail(file: string, count: number = LOG_TAIL_LINES): string[] {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return [];
  }
  try {
    const size = statSync(file).size;
    const length = Math.min(size, 256 * 1024);
    const buffer = Buffer.alloc(length);
    readSync(fd, buffer, 0, length, size - length);
    return tailLines(buffer.toString('utf8'), count, 'file');
  } finally {
    closeSync(fd);
  }
}
