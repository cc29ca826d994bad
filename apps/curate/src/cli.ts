#!/usr/bin/env node
import { processIO } from './io.js';
import { main } from './main.js';

// Ctrl-C or a kill: exiting runs the runner's exit hook, which ends the pytest runs and builds it
// started (their own process groups, which the signal does not reach). Every stage has stored what
// finished, so the same command again carries on.
for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
] as const) {
  process.once(signal, () => {
    process.stderr.write(
      `\ninterrupted (${signal}): what finished is in the catalog; run the same command again to carry on\n`,
    );
    process.exit(code);
  });
}

process.exitCode = await main(process.argv.slice(2), processIO);
