import { type ValidationEntry, validationOverview } from '@repocod/pipeline';
import { render } from 'ink-testing-library';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { openDemoCatalog } from '../testing/demo-fixture.js';
import { FailureView } from './failure-view.js';
import { frameLines, KEY, press } from '../testing/ink-test-support.js';

/** The failure view of a real failed task, with logs that cannot be had. */
let failed: ValidationEntry | null = null;

beforeAll(async () => {
  const catalog = await openDemoCatalog();
  try {
    failed =
      (await validationOverview(catalog)).entries.find(
        (entry) => entry.instanceId === 'demo-inventory.util.checksum_digit',
      ) ?? null;
  } finally {
    await catalog.close();
  }
});

function view(loadLog: (runId: string) => Promise<string | null>, onBack = vi.fn()): ReturnType<typeof render> {
  if (failed === null) throw new Error('the demo selection has no util.checksum_digit');
  return render(<FailureView entry={failed} width={80} height={20} active loadLog={loadLog} onBack={onBack} />);
}

describe('FailureView', () => {
  it('says when the catalog has no such run, keeping the end it has', async () => {
    const { lastFrame, stdin } = view(() => Promise.resolve(null));
    await press(stdin, 'f');
    const lines = frameLines(lastFrame());
    expect(lines.some((row) => row.startsWith('the catalog has no run '))).toBe(true);
  });

  it('says when the log could not be loaded', async () => {
    const { lastFrame, stdin } = view(() => Promise.reject(new Error('the catalog is locked')));
    await press(stdin, 'f');
    expect(frameLines(lastFrame())).toContain('could not load the log: the catalog is locked');
  });

  it('shows that a log is on its way, and loads it once', async () => {
    let resolve: (text: string) => void = () => undefined;
    const loadLog = vi.fn(() => new Promise<string | null>((done) => (resolve = done)));
    const { lastFrame, stdin } = view(loadLog);
    await press(stdin, 'f', 'f');
    expect(frameLines(lastFrame())).toContain('loading the whole log…');
    expect(loadLog).toHaveBeenCalledTimes(1);
    resolve('collected 12 items\n');
    await press(stdin, KEY.up);
    expect(frameLines(lastFrame())).toContain('collected 12 items');
  });

  it('goes back with Esc', async () => {
    const onBack = vi.fn();
    const { stdin } = view(() => Promise.resolve(null), onBack);
    await press(stdin, KEY.escape);
    expect(onBack).toHaveBeenCalledTimes(1);
  });
});
