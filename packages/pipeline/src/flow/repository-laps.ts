/**
 * Splits the wall time of a stage that works through repositories one after another (validate) into
 * one lap per repository: a repository's lap runs from the end of the previous one (or the stage's
 * start) to the last moment it was heard of. The laps then add up to the stage's time, with each
 * repository's own preparation counted in its lap.
 */
export class RepositoryLaps {
  private readonly lastSeen = new Map<string, number>();
  private readonly order: string[] = [];

  constructor(private readonly startedAt: number) {}

  /** The stage did something for `repository` at `now` (milliseconds, same clock as the start). */
  heard(repository: string, now: number): void {
    if (!this.lastSeen.has(repository)) this.order.push(repository);
    this.lastSeen.set(repository, now);
  }

  /** Seconds per repository, in the order they were first heard of. */
  laps(): Map<string, number> {
    const laps = new Map<string, number>();
    let from = this.startedAt;
    for (const repository of this.order) {
      const until = Math.max(from, this.lastSeen.get(repository) ?? from);
      laps.set(repository, (until - from) / 1000);
      from = until;
    }
    return laps;
  }
}
