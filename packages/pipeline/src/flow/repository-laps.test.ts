import { describe, expect, it } from 'vitest';
import { RepositoryLaps } from './repository-laps.js';

describe('RepositoryLaps', () => {
  it('gives each repository the time from the previous one to its last event', () => {
    const laps = new RepositoryLaps(1_000);
    laps.heard('flask', 3_000);
    laps.heard('flask', 6_500);
    laps.heard('demo', 7_000);
    laps.heard('demo', 10_000);
    expect([...laps.laps()]).toEqual([
      ['flask', 5.5],
      ['demo', 3.5],
    ]);
  });

  it('never gives a negative lap, and nothing when no repository was heard of', () => {
    expect(new RepositoryLaps(0).laps().size).toBe(0);
    const laps = new RepositoryLaps(5_000);
    laps.heard('a', 9_000);
    laps.heard('b', 8_000);
    expect([...laps.laps()]).toEqual([
      ['a', 4],
      ['b', 0],
    ]);
  });
});
