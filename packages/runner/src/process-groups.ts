/**
 * Process groups the runner started and that are still running. Every command and every pytest run
 * is its own group leader (detached), so that a timeout can kill it with everything it started, and
 * so a Ctrl-C of the terminal does not reach it; whoever ends this process must then end them, or
 * they would go on writing into worktrees and environments the next run resets.
 */
const liveGroups = new Set<number>();
let exitHookInstalled = false;

/** Kills a whole process group; a group already gone is what was wanted. */
export function killProcessGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // ESRCH: the group is already gone.
  }
}

/** Records a group as running until `forget`; on this process's exit every recorded group is killed. */
export function trackProcessGroup(pid: number): { forget: () => void } {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on('exit', killRunningProcessGroups);
  }
  liveGroups.add(pid);
  return { forget: () => liveGroups.delete(pid) };
}

/** Kills every group still running (an interrupted command calls this before it exits); returns how many. */
export function killRunningProcessGroups(): number {
  const count = liveGroups.size;
  for (const pid of liveGroups) killProcessGroup(pid);
  liveGroups.clear();
  return count;
}
