import { describe, expect, it } from 'vitest';
import { progressInterval, progressLine } from './progress-line.js';
import { bufferIO } from './testing/test-support.js';

describe('progressLine', () => {
  it('gives done/total, what runs, elapsed time and ETA; a quiet spell as long as the interval is said', () => {
    const report = {
      done: 3,
      total: 12,
      item: 'baseline: pytest jobs',
      elapsedSeconds: 75,
      etaSeconds: 225,
      idleSeconds: 5,
    };
    expect(progressLine(report, 30_000)).toBe('3/12 (25%) baseline: pytest jobs · 1 min 15 s elapsed · ETA 3 min 45 s');
    expect(progressLine({ ...report, idleSeconds: 41 }, 30_000)).toBe(
      '3/12 (25%) baseline: pytest jobs · 1 min 15 s elapsed · ETA 3 min 45 s · still running, nothing finished for ' +
        '41.0 s',
    );
    expect(progressLine({ ...report, done: 0, total: 0, item: '', etaSeconds: null }, 30_000)).toBe(
      'working · 1 min 15 s elapsed',
    );
  });

  it('takes the interval from the IO, else from REPOCOD_PROGRESS_INTERVAL_MS, and refuses a bad value', () => {
    expect(progressInterval({ ...bufferIO(), progressIntervalMs: 50 }, {})).toBe(50);
    expect(progressInterval(bufferIO(), { REPOCOD_PROGRESS_INTERVAL_MS: '200' })).toBe(200);
    expect(progressInterval(bufferIO(), {})).toBe(30_000);
    expect(() => progressInterval(bufferIO(), { REPOCOD_PROGRESS_INTERVAL_MS: '5s' })).toThrow(
      /REPOCOD_PROGRESS_INTERVAL_MS must be a whole number of milliseconds/,
    );
  });
});
