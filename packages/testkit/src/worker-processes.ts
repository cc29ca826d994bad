import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The built command line (testkit's src/ and dist/ both sit two levels below the repository). */
const CLI = fileURLToPath(new URL('../../../apps/curate/dist/cli.js', import.meta.url));

/** A `repocod worker` process on this machine, as the tests and `pnpm bench:distributed` start them. */
export interface WorkerProcess {
  readonly child: ChildProcess;
  /** Everything it has written to stderr so far (its log). */
  readonly log: () => string;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Resolves once the worker takes jobs (its repositories prepared). */
  readonly ready: Promise<void>;
}

export interface WorkerProcessOptions {
  readonly redisUrl: string;
  readonly namespace: string;
  readonly concurrency?: number;
  /** Seconds before a silent worker's jobs go to others (the CLI's default is 30). */
  readonly lockSeconds?: number;
  /** Repositories to prepare before taking jobs. */
  readonly prepare?: readonly string[];
  /** Its state folder (default: a fresh temporary one). */
  readonly state?: string;
}

export function startWorkerProcess(options: WorkerProcessOptions): WorkerProcess {
  const state = options.state ?? mkdtempSync(join(tmpdir(), 'repocod-worker-'));
  const args = [
    CLI,
    'worker',
    '--redis',
    options.redisUrl,
    '--namespace',
    options.namespace,
    '--state',
    state,
    '--concurrency',
    String(options.concurrency ?? 1),
  ];
  if (options.lockSeconds !== undefined) args.push('--lock-seconds', String(options.lockSeconds));
  for (const name of options.prepare ?? []) args.push('--prepare', name);
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  const ready = new Promise<void>((resolve, reject) => {
    child.stderr?.on('data', (chunk: Buffer) => {
      log += chunk.toString();
      if (log.includes(' takes jobs from ')) resolve();
    });
    void exited.then(({ code, signal }) =>
      reject(new Error(`repocod worker exited (${signal ?? code}) before taking jobs:\n${log}`)),
    );
  });
  // A worker that exits later (killed by a test) must not leave `ready` rejecting unheard.
  ready.catch(() => undefined);
  return { child, log: () => log, exited, ready };
}
