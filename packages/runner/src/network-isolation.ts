import { spawnSync } from 'node:child_process';

export type NetworkIsolation = { readonly isolated: true; readonly prefix: readonly string[] } | { readonly isolated: false; readonly reason: string };

let probed: NetworkIsolation | undefined;

/**
 * Tests run without network where the OS allows it: a new network namespace (only loopback) via
 * `unshare --net`, with `--map-root-user` so that it also works without root where user namespaces
 * are enabled. Probed once per process; where it cannot work, runs say so instead of failing.
 */
export function networkIsolation(): NetworkIsolation {
  if (probed === undefined) {
    const prefix = ['unshare', '--net', '--map-root-user'];
    const probe = spawnSync(prefix[0] as string, [...prefix.slice(1), 'true'], { encoding: 'utf8' });
    probed =
      probe.status === 0
        ? { isolated: true, prefix }
        : { isolated: false, reason: `unshare --net is not available here (${probe.error?.message ?? probe.stderr.trim()})` };
  }
  return probed;
}
