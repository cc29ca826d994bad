/** One unit of work with an estimated cost (seconds of test time). */
export interface Costed<T> {
  readonly item: T;
  readonly cost: number;
}

export interface BatchLimits {
  /** Workers of the pool: never fewer batches than this when there are as many items. */
  readonly workers: number;
  readonly maxPerBatch: number;
  /** Estimated seconds one batch should hold, where the items allow (one costlier item runs alone). */
  readonly capacity: number;
}

/**
 * Packs items into batches, each one process that pays its start (interpreter, imports, collection)
 * once for all its items. The rules:
 *
 * - When the whole fits in one batch per worker (total cost at most workers × capacity), the items are
 *   spread over max(workers, items / maxPerBatch) batches, balanced: the costliest item first onto
 *   the lightest batch (LPT), so that the workers finish together.
 * - Otherwise each batch fills up to `capacity`: the costliest item first onto the lightest batch it
 *   still fits in, a new batch when none has room. Cheap items then share a few processes instead of
 *   being spread one or two per process by a handful of expensive ones (on xarray, 164 of 546
 *   functions hold 97% of the cost, and an even spread gave 546 batches of one or two).
 * - No batch holds more than `maxPerBatch` items; none is empty. Inside a batch the input order is
 *   kept, and batches come back costliest first so that the pool starts the long ones early.
 */
export function packBatches<T>(items: readonly Costed<T>[], limits: BatchLimits): T[][] {
  if (items.length === 0) return [];
  const order = items.map((entry, index) => ({ ...entry, index })).sort((a, b) => b.cost - a.cost || a.index - b.index);
  const total = items.reduce((sum, entry) => sum + entry.cost, 0);
  const maxPerBatch = Math.max(1, limits.maxPerBatch);
  const bins: { cost: number; entries: { index: number; item: T }[] }[] = [];
  if (total <= limits.workers * limits.capacity) {
    const count = Math.min(items.length, Math.max(limits.workers, Math.ceil(items.length / maxPerBatch)));
    for (let index = 0; index < count; index++) bins.push({ cost: 0, entries: [] });
    for (const entry of order) {
      const open = bins.filter((bin) => bin.entries.length < maxPerBatch);
      const lightest = (open.length > 0 ? open : bins).reduce((best, bin) => (bin.cost < best.cost ? bin : best));
      lightest.cost += entry.cost;
      lightest.entries.push({ index: entry.index, item: entry.item });
    }
  } else {
    for (const entry of order) {
      const fitting = bins.filter(
        (bin) => bin.entries.length < maxPerBatch && bin.cost + entry.cost <= limits.capacity,
      );
      const bin =
        fitting.length > 0
          ? fitting.reduce((best, candidate) => (candidate.cost < best.cost ? candidate : best))
          : null;
      if (bin === null) bins.push({ cost: entry.cost, entries: [{ index: entry.index, item: entry.item }] });
      else {
        bin.cost += entry.cost;
        bin.entries.push({ index: entry.index, item: entry.item });
      }
    }
  }
  return bins
    .filter((bin) => bin.entries.length > 0)
    .sort((a, b) => b.cost - a.cost)
    .map((bin) => bin.entries.sort((a, b) => a.index - b.index).map((entry) => entry.item));
}
