/**
 * Runs async tasks one at a time, in call order. A catalog has one DuckDB connection and a connection
 * holds at most one transaction, so two overlapping `replaceFiles` calls (parallel extract workers)
 * must not interleave their BEGIN … COMMIT.
 */
export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.tail.then(task);
    // A failed task must not stop the ones queued after it; its caller sees the failure.
    this.tail = result.catch(() => undefined);
    return result;
  }

  /** Resolves once every task queued so far has settled. */
  async drain(): Promise<void> {
    await this.tail;
  }
}
