import { render } from 'ink';
import type { CurateSession } from '../curate-session.js';
import { App } from './app.js';

/**
 * Opens the TUI on the terminal and resolves with the exit code once the curator quits (Ctrl-C quits
 * too: the terminal is in raw mode, so it is a key here, not a signal). The screen is
 * the terminal's alternate screen, so quitting gives the shell back as it was.
 */
export async function runTui(session: CurateSession, requested: readonly string[]): Promise<number> {
  const initialStatus = await session.status();
  process.stdout.write('\u001b[?1049h');
  try {
    const app = render(
      <App session={session} initialStatus={initialStatus} requested={requested} autoRun={requested.length > 0} />,
      { exitOnCtrlC: true },
    );
    await app.waitUntilExit();
  } finally {
    process.stdout.write('\u001b[?1049l');
  }
  if (session.flowRunning) {
    // Quit mid-stage: the flow would finish its stage before it looked at the abort. Exiting now ends
    // the pytest runs in flight (the runner's exit hook kills their process groups); what finished is
    // stored, and the next start carries on from it.
    process.stdout.write(
      'curate: stopped in the middle of the flow; what finished is in the catalog: run pnpm curate again to carry on\n',
    );
    process.exit(130);
  }
  const after = await session.status();
  process.stdout.write(
    `curate: ${after.validation.passed} task(s) passed validation, ${after.validation.failed} failed; release ` +
      `${after.releaseFolder}: ${
        after.releasedVersions.map((version) => version.version).join(', ') || 'no version yet'
      }\n`,
  );
  return 0;
}
