import type { MiningEvent } from './mining-events.js';
import type { FunctionMining, MiningMode, MiningStore } from './mining-store.js';
import type { MutationTarget } from './mutation-target.js';
import { isSettledError } from './settled-error.js';

/**
 * Every target's result in one mining run: those an earlier run settled, and each new one stored as it finishes, so
 * that a killed run resumes from there; it counts them for the progress events.
 */
export class MiningProgress {
  /** The targets still to mine: no earlier run settled them. */
  readonly pending: readonly MutationTarget[];
  private readonly results = new Map<string, FunctionMining>();
  private done: number;

  constructor(
    private readonly targets: readonly MutationTarget[],
    earlier: ReadonlyMap<string, FunctionMining>,
    private readonly store: MiningStore,
    private readonly mode: MiningMode,
    private readonly onEvent?: (event: MiningEvent) => void,
  ) {
    const settled = (found: FunctionMining | undefined): found is FunctionMining =>
      found !== undefined && (found.status !== 'error' || isSettledError(found));
    this.pending = targets.filter((target) => !settled(earlier.get(target.id)));
    for (const target of targets) {
      const found = earlier.get(target.id);
      if (settled(found)) this.results.set(target.id, found);
    }
    this.done = this.results.size;
  }

  /** Targets whose result came from the store (a resumed run). */
  get resumed(): number {
    return this.targets.length - this.pending.length;
  }

  /** Every target's result so far, in target order. */
  functions(): FunctionMining[] {
    return this.targets.flatMap((target) => this.results.get(target.id) ?? []);
  }

  /** A target's result, stored and counted. */
  async finish(result: FunctionMining): Promise<void> {
    this.results.set(result.id, result);
    await this.store.saveFunction(this.mode, result);
    this.done++;
    this.onEvent?.({ kind: 'function-done', result, done: this.done, total: this.targets.length });
  }

  /** A finished target's result replaced by a better one (a confirmation run's), stored; it counts once. */
  async replace(result: FunctionMining): Promise<void> {
    await this.store.saveFunction(this.mode, result);
    this.results.set(result.id, result);
  }
}
