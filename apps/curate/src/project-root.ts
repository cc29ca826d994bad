import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repocod-kit folder: where the built-in manifests are and where `.repocod/` state lives. */
export const PROJECT_ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/**
 * Where clones, environments and worktrees go: `$REPOCOD_STATE` when set (a bigger disk; a test's own
 * folder, so that two runs never share worktrees), else `.repocod/` in the project. Read at each
 * command, not at load.
 */
export function stateRoot(): string {
  const chosen = process.env.REPOCOD_STATE;
  return chosen !== undefined && chosen !== '' ? chosen : join(PROJECT_ROOT, '.repocod');
}
