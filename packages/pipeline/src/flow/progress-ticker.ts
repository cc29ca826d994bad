/** How often a long stage reports, as a line in the headless mode and as an event with --json. */
export const DEFAULT_PROGRESS_INTERVAL_MS = 30_000;

/** Where a long piece of work stands, reported every interval whether or not it moved. */
export interface ProgressReport {
  readonly done: number;
  /** 0 while the work has not said how much there is. */
  readonly total: number;
  /** What runs now: the phase, or the last item that finished. */
  readonly item: string;
  /** Seconds since the work began. */
  readonly elapsedSeconds: number;
  /** Seconds left at the pace since the current count began; null before its first item finished. */
  readonly etaSeconds: number | null;
  /** Seconds since the count last moved: a long quiet spell tells slow work (or a hang) from a crawl. */
  readonly idleSeconds: number;
}

/**
 * Keeps the latest step of a long piece of work and reports it every interval, also when no step
 * came in that interval (the heartbeat that tells a slow stage from a hung one). A new count (the
 * total changes, or done goes back, as when mining goes from the baseline to the mutations) restarts
 * the pace the ETA is measured by. The timer does not keep the process alive.
 */
export class ProgressTicker {
  private readonly startedAt: number;
  private done = 0;
  private total = 0;
  private item = '';
  private countStartedAt: number;
  private countStartedDone = 0;
  private movedAt: number;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly onReport: (report: ProgressReport) => void,
    private readonly intervalMs: number = DEFAULT_PROGRESS_INTERVAL_MS,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.startedAt = now();
    this.countStartedAt = this.startedAt;
    this.movedAt = this.startedAt;
  }

  start(): this {
    this.timer ??= setInterval(() => this.onReport(this.report()), this.intervalMs);
    this.timer.unref();
    return this;
  }

  stop(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
  }

  step(done: number, total: number, item: string): void {
    const at = this.now();
    if (total !== this.total || done < this.done) {
      this.countStartedAt = at;
      this.countStartedDone = done;
      this.movedAt = at;
    } else if (done !== this.done) {
      this.movedAt = at;
    }
    this.done = done;
    this.total = total;
    if (item !== '') this.item = item;
  }

  report(): ProgressReport {
    const at = this.now();
    const finished = this.done - this.countStartedDone;
    const etaSeconds =
      finished > 0 && this.total >= this.done
        ? ((at - this.countStartedAt) / 1000 / finished) * (this.total - this.done)
        : null;
    return {
      done: this.done,
      total: this.total,
      item: this.item,
      elapsedSeconds: (at - this.startedAt) / 1000,
      etaSeconds,
      idleSeconds: (at - this.movedAt) / 1000,
    };
  }
}
