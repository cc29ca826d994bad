import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runLoggedCommand, succeeded, type LoggedCommand, type LoggedCommandResult } from './environment-command.js';

const scratch = mkdtempSync(join(tmpdir(), 'repocod-command-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function shell(script: string): LoggedCommand {
  return { display: script, file: '/bin/sh', args: ['-c', script] };
}

async function run(
  command: LoggedCommand,
  timeoutMs = 30_000,
): Promise<{ result: LoggedCommandResult; log: string; lines: string[] }> {
  const logFile = join(scratch, `${Math.random().toString(36).slice(2)}.log`);
  const logFd = openSync(logFile, 'a');
  const lines: string[] = [];
  try {
    const result = await runLoggedCommand(command, {
      cwd: scratch,
      env: { ...process.env, GREETING: 'hello' },
      logFd,
      timeoutMs,
      onLog: (line) => lines.push(line),
    });
    return { result, log: readFileSync(logFile, 'utf8'), lines };
  } finally {
    closeSync(logFd);
  }
}

/** Dead or a zombie: a killed process whose parent died waits for init to reap it. */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

async function eventuallyDead(pid: number): Promise<boolean> {
  for (let attempt = 0; attempt < 40; attempt += 1) {
    if (!alive(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

describe('runLoggedCommand', () => {
  it('echoes the command and appends stdout and stderr to the log, and passes lines on', async () => {
    const { result, log, lines } = await run(shell('echo "$GREETING from $(pwd)"; echo oops >&2; printf partial'));
    expect(succeeded(result)).toBe(true);
    expect(log).toMatch(new RegExp(`^\\$ echo .*\\nhello from ${scratch}\\n`));
    expect(log).toContain('oops\n');
    expect(log).toMatch(/\npartial\n# exit 0 after \d+\.\d s\n$/);
    expect(lines).toEqual(expect.arrayContaining([`hello from ${scratch}`, 'oops', 'partial']));
    expect(lines[0]).toMatch(/^\$ echo/);
  });

  it('reports the exit code of a failing command', async () => {
    const { result, log } = await run(shell('exit 3'));
    expect(result).toMatchObject({ exitCode: 3, timedOut: false, startError: null });
    expect(succeeded(result)).toBe(false);
    expect(log).toContain('# exit 3 after');
  });

  it('kills the whole process group on timeout, grandchildren included', async () => {
    const pidFile = join(scratch, 'grandchild.pid');
    const started = performance.now();
    const { result, log } = await run(shell(`sleep 30 & echo $! > ${pidFile}; sleep 30`), 500);
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(result).toMatchObject({ exitCode: null, timedOut: true });
    expect(log).toContain('# timed out after');
    expect(await eventuallyDead(Number(readFileSync(pidFile, 'utf8')))).toBe(true);
  });

  it('does not wait for a background process left holding the output open, and ends it', async () => {
    const pidFile = join(scratch, 'daemon.pid');
    const started = performance.now();
    const { result } = await run(shell(`sleep 60 & echo $! > ${pidFile}; echo started`));
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(result.exitCode).toBe(0);
    expect(await eventuallyDead(Number(readFileSync(pidFile, 'utf8')))).toBe(true);
  });

  it('reports a program that cannot be started', async () => {
    const { result, log } = await run({
      display: 'no-such-program-repocod',
      file: 'no-such-program-repocod',
      args: [],
    });
    expect(result.exitCode).toBeNull();
    expect(result.startError).toContain('ENOENT');
    expect(log).toContain('# could not start:');
  });
});
