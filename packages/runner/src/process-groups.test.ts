import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { killRunningProcessGroups, trackProcessGroup } from './process-groups.js';

/** Running, that is: present and not a zombie waiting for a parent (here, often none) to reap it. */
const alive = (pid: number): boolean => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
};

describe('process groups', () => {
  it('kills every tracked group with its children, and not the forgotten ones', async () => {
    // A shell whose child sleeps: killing only the shell would leave the sleep behind.
    const spawnGroup = (): { pid: number; grandchild: Promise<number> } => {
      const child = spawn('/bin/sh', ['-c', 'sleep 30 & echo $!; wait'], {
        detached: true,
        stdio: ['ignore', 'pipe', 'ignore'],
      });
      const grandchild = new Promise<number>((resolve) =>
        child.stdout.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim()))),
      );
      return { pid: child.pid as number, grandchild };
    };
    const tracked = spawnGroup();
    const forgotten = spawnGroup();
    trackProcessGroup(tracked.pid);
    trackProcessGroup(forgotten.pid).forget();
    const [trackedSleep, forgottenSleep] = await Promise.all([tracked.grandchild, forgotten.grandchild]);
    expect(killRunningProcessGroups()).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(alive(trackedSleep)).toBe(false);
    expect(alive(forgottenSleep)).toBe(true);
    process.kill(-forgotten.pid, 'SIGKILL');
    expect(killRunningProcessGroups()).toBe(0);
  });
});
