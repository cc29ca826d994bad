import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RepocodError } from '@repocod/core';

/**
 * A worker's own state folder (clones, environments, worktrees). Two workers on one folder would reset
 * each other's worktrees in the middle of a run, so each holds a lock (its pid) on its folder: by
 * default the first free `worker-<n>` folder under the state root, so that several worker processes
 * on one machine just work; given by hand (`--state`), that folder or an error naming who holds it.
 */
export interface StateSlot {
  readonly path: string;
  readonly slot: number;
  release(): void;
}

const LOCK = 'worker.pid';

export function claimStateSlot(stateRoot: string, given?: string): StateSlot {
  if (given !== undefined) {
    const holder = tryLock(given);
    if (holder !== null)
      throw new RepocodError(
        'usage',
        `${given} is in use by worker process ${holder}; give this worker another --state folder, or leave --state ` +
          `out ` +
          `to take a free one`,
      );
    return slot(given, 0);
  }
  for (let index = 0; ; index++) {
    const path = join(stateRoot, `worker-${index}`);
    if (tryLock(path) === null) return slot(path, index);
  }
}

function slot(path: string, index: number): StateSlot {
  return {
    path,
    slot: index,
    release: () => rmSync(join(path, LOCK), { force: true }),
  };
}

/** Locks the folder for this process; returns the pid of the live process that holds it instead. */
function tryLock(path: string): number | null {
  mkdirSync(path, { recursive: true });
  const lock = join(path, LOCK);
  for (;;) {
    try {
      writeFileSync(lock, String(process.pid), { flag: 'wx' });
      return null;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = Number(readFileSync(lock, 'utf8').trim());
    // This very process counts as a holder too: a second worker started in it gets a folder of its own.
    if (Number.isInteger(holder) && alive(holder)) return holder;
    // Left by a worker that died (killed, machine restarted): the folder is free again.
    rmSync(lock, { force: true });
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
