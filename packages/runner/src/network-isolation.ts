import { spawnSync } from 'node:child_process';

export type NetworkIsolation =
  | {
      readonly isolated: true;
      readonly prefix: readonly string[];
      readonly loopback: boolean;
      readonly note: string | null;
    }
  | { readonly isolated: false; readonly reason: string };

let probed: NetworkIsolation | undefined;

const UNSHARE = ['unshare', '--net', '--map-root-user'];
// A new network namespace has its loopback interface down: a test that serves on 127.0.0.1 and
// connects to it (sphinx's linkcheck server, dask's local clusters) would fail with "Network is
// unreachable" although it never leaves the machine. The namespace's root brings it up, then execs.
const LOOPBACK_UP = ['/bin/sh', '-c', 'ip link set lo up && exec "$@"', 'repocod-netns'];

/**
 * Tests run without network where the OS allows it: a new network namespace via `unshare --net`,
 * with `--map-root-user` so that it also works without root where user namespaces are enabled, and
 * only its loopback interface up. Probed once per process; where it cannot work, runs say so instead
 * of failing, and where `ip` (iproute2) is missing the namespace keeps loopback down, with a note.
 */
export function networkIsolation(): NetworkIsolation {
  if (probed === undefined) {
    const withLoopback = [...UNSHARE, ...LOOPBACK_UP];
    const bare = spawnSync(UNSHARE[0] as string, [...UNSHARE.slice(1), 'true'], { encoding: 'utf8' });
    if (bare.status !== 0) {
      probed = {
        isolated: false,
        reason: `unshare --net is not available here (${bare.error?.message ?? bare.stderr.trim()})`,
      };
    } else {
      const probe = spawnSync(withLoopback[0] as string, [...withLoopback.slice(1), 'true'], { encoding: 'utf8' });
      probed =
        probe.status === 0
          ? { isolated: true, prefix: withLoopback, loopback: true, note: null }
          : {
              isolated: true,
              prefix: UNSHARE,
              loopback: false,
              note:
                `tests run with loopback down: \`ip link set lo up\` failed (${probe.stderr.trim() || 'no ip'}); ` +
                `install iproute2`,
            };
    }
  }
  return probed;
}
