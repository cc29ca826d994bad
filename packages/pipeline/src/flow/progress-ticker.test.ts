import { describe, expect, it } from 'vitest';
import type { ProgressReport } from './progress-ticker.js';
import { ProgressTicker } from './progress-ticker.js';

describe('ProgressTicker', () => {
  it('measures the ETA by the pace of the current count, and how long the count has not moved', () => {
    let now = 0;
    const ticker = new ProgressTicker(
      () => undefined,
      30_000,
      () => now,
    );
    ticker.step(0, 10, 'baseline');
    now = 20_000;
    ticker.step(2, 10, '');
    expect(ticker.report()).toEqual({
      done: 2,
      total: 10,
      item: 'baseline',
      elapsedSeconds: 20,
      etaSeconds: 80,
      idleSeconds: 0,
    });
    now = 65_000;
    expect(ticker.report()).toMatchObject({ etaSeconds: (65 / 2) * 8, idleSeconds: 45 });
    // A new count (the next phase) restarts the pace: no ETA before its first item finishes.
    ticker.step(0, 4, 'mutation');
    expect(ticker.report()).toMatchObject({
      done: 0,
      total: 4,
      item: 'mutation',
      elapsedSeconds: 65,
      etaSeconds: null,
      idleSeconds: 0,
    });
  });

  it('reports every interval, also when nothing moved, until stopped', async () => {
    const reports: ProgressReport[] = [];
    const ticker = new ProgressTicker((report) => reports.push(report), 10).start();
    ticker.step(1, 3, 'jobs');
    await new Promise((resolve) => setTimeout(resolve, 100));
    ticker.stop();
    const count = reports.length;
    expect(count).toBeGreaterThan(1);
    expect(reports.every((report) => report.done === 1 && report.total === 3 && report.item === 'jobs')).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(reports).toHaveLength(count);
  });
});
