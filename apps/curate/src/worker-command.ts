import { RepocodError } from '@repocod/core';
import { DistributedWorker, parseRedisUrl } from '@repocod/distributed';
import { findRepository, listRepositories } from '@repocod/pipeline';
import type { ManifestEntry } from '@repocod/runner';
import { applySourceOverrides } from '@repocod/runner';
import type { CommandIO } from './io.js';
import type { ParsedArgs } from './parse-args.js';
import { listOption, stringOption, wholeNumber } from './parse-args.js';
import { PROJECT_ROOT, stateRoot } from './project-root.js';

export const WORKER_USAGE =
  `usage: repocod worker --redis redis://HOST:PORT [--concurrency N] [--prepare NAME]... ` +
  `[--state DIR]
                      [--namespace NAME] [--lock-seconds S] [--manifest FILE] [--source NAME=PATH]

Runs the jobs a coordinator (a command given --executor redis://HOST:PORT) puts on that Redis: each
job brings its repository's manifest entry, and the worker prepares the checkout and environment on
first use, in a state folder of its own (a free .repocod/worker-<n>, or --state DIR), with one
worktree per job it runs at once (--concurrency, default 1). --prepare makes a repository ready
before the first job. A worker killed in the middle of a job loses nothing: after --lock-seconds
(default 30) without a sign of life its jobs go back on the queue for the other workers. Ctrl-C (or
SIGTERM) finishes the running jobs and stops; a second one stops at once (those jobs run elsewhere).`;

export async function workerCommand(args: ParsedArgs, io: CommandIO): Promise<number> {
  if (args.positionals.length > 0) throw new RepocodError('usage', WORKER_USAGE);
  const url = stringOption(args, 'redis');
  if (url === undefined)
    throw new RepocodError('usage', `repocod worker needs --redis redis://HOST:PORT\n\n${WORKER_USAGE}`);
  const address = parseRedisUrl(url, '--redis');
  const manifest = stringOption(args, 'manifest');
  const sources = listOption(args, 'source');
  // Checked against the manifests now: a typo must not wait for the first job to show.
  listRepositories({ projectRoot: PROJECT_ROOT, manifest, sources });
  const prepare = listOption(args, 'prepare')
    .flatMap((names) => names.split(','))
    .filter((name) => name !== '')
    .map((name) => findRepository(name, { projectRoot: PROJECT_ROOT, manifest, sources }));
  const worker = await DistributedWorker.start({
    address,
    concurrency: wholeNumber(args, 'concurrency', 1),
    projectRoot: PROJECT_ROOT,
    stateRoot: stateRoot(),
    state: stringOption(args, 'state'),
    prefix: stringOption(args, 'namespace'),
    lockSeconds: wholeNumber(args, 'lock-seconds', 30),
    prepare,
    entryFor: (entry) => withLocalSource(entry, sources),
    onLog: (line) => io.err(`${new Date().toISOString().slice(11, 19)} ${line}\n`),
  });
  return new Promise<number>((resolve) => {
    let stopping = false;
    const stop = (signal: NodeJS.Signals): void => {
      if (stopping) {
        // The runner's exit hook ends the pytest runs; the jobs' locks lapse and other workers take them.
        io.err(`${signal}: stopping now; the running jobs go back on the queue after --lock-seconds\n`);
        process.exit(signal === 'SIGINT' ? 130 : 143);
      }
      stopping = true;
      io.err(`${signal}: finishing the running jobs, then stopping (again to stop now)\n`);
      void worker.close().then(() => resolve(0));
    };
    // Replaces the CLI's exit-at-once handlers: a worker finishes what it holds first.
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      process.removeAllListeners(signal);
      process.on(signal, () => stop(signal));
    }
  });
}

/** The job's entry with this machine's clone for it, when --source names its repository. */
function withLocalSource(entry: ManifestEntry, sources: readonly string[]): ManifestEntry {
  const own = sources.filter((source) => source.slice(0, source.indexOf('=')).trim() === entry.name);
  if (own.length === 0) return entry;
  return applySourceOverrides({ file: 'the job', repositories: [entry] }, own).repositories[0] ?? entry;
}
