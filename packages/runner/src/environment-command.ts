import { spawn } from 'node:child_process';
import { killProcessGroup, trackProcessGroup } from './process-groups.js';
import { writeSync } from 'node:fs';

/** One step of an environment build: a program and its arguments, never a shell string we put together. */
export interface LoggedCommand {
  /** What the log and error messages show for it. */
  readonly display: string;
  readonly file: string;
  readonly args: readonly string[];
}

export interface LoggedCommandOptions {
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  /** An open file descriptor the command's output is appended to. */
  readonly logFd: number;
  readonly timeoutMs: number;
  readonly onLog?: (line: string) => void;
}

export interface LoggedCommandResult {
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly timedOut: boolean;
  /** Set when the program could not be started at all. */
  readonly startError: string | null;
  readonly seconds: number;
}

/**
 * Runs one command with stdout and stderr appended to the log (after a `$ command` line) and
 * passed on line by line to `onLog`. On timeout the command's whole process group is killed: pip
 * runs compilers and build backends as grandchildren, and killing only the direct child would leave
 * them writing into an environment being torn down. The group is also killed after a normal exit,
 * so a daemon it left behind cannot hold the output pipes open (and this promise with them).
 */
export function runLoggedCommand(command: LoggedCommand, options: LoggedCommandOptions): Promise<LoggedCommandResult> {
  const started = performance.now();
  const emit = (line: string): void => options.onLog?.(line);
  const log = (text: string): void => {
    writeSync(options.logFd, text);
  };
  log(`$ ${command.display}\n`);
  emit(`$ ${command.display}`);

  return new Promise((resolve) => {
    const child = spawn(command.file, [...command.args], {
      cwd: options.cwd,
      env: options.env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let timedOut = false;
    let startError: string | null = null;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | null = null;
    const pid = child.pid;
    const group = pid === undefined ? null : trackProcessGroup(pid);

    const timer = setTimeout(() => {
      timedOut = true;
      if (pid !== undefined) killProcessGroup(pid);
    }, options.timeoutMs);

    // Lines are split, and written to the log whole, per stream: a half line of stdout must never
    // be glued to a line of stderr that arrived in between.
    const lineSplitter = (): { push: (chunk: Buffer) => void; flush: () => void } => {
      let pending = '';
      return {
        push(chunk) {
          pending += chunk.toString('utf8');
          const end = pending.lastIndexOf('\n');
          if (end === -1) return;
          log(pending.slice(0, end + 1));
          for (const line of pending.slice(0, end).split('\n')) emit(line.replace(/\r$/, ''));
          pending = pending.slice(end + 1);
        },
        flush() {
          if (pending !== '') {
            log(`${pending}\n`);
            emit(pending.replace(/\r$/, ''));
          }
          pending = '';
        },
      };
    };
    const stdout = lineSplitter();
    const stderr = lineSplitter();
    child.stdout.on('data', stdout.push);
    child.stderr.on('data', stderr.push);

    child.on('error', (error) => {
      startError = error.message;
    });
    child.on('exit', (code, signal) => {
      exit = { code, signal };
      if (pid !== undefined) killProcessGroup(pid);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      group?.forget();
      stdout.flush();
      stderr.flush();
      const final = exit ?? { code, signal };
      const seconds = (performance.now() - started) / 1000;
      const outcome =
        startError !== null
          ? `could not start: ${startError}`
          : timedOut
            ? 'timed out'
            : final.code !== null
              ? `exit ${final.code}`
              : `killed by ${final.signal}`;
      log(`# ${outcome} after ${seconds.toFixed(1)} s\n`);
      resolve({
        exitCode: startError !== null || timedOut ? null : final.code,
        signal: final.signal,
        timedOut,
        startError,
        seconds,
      });
    });
  });
}

/** True when the command ran and exited with 0. */
export function succeeded(result: LoggedCommandResult): boolean {
  return result.exitCode === 0 && !result.timedOut && result.startError === null;
}
