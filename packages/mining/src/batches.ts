/** One unit of work with an estimated cost (seconds of test time). */
export interface Costed<T> {
  readonly item: T;
  readonly cost: number;
}

/**
 * Packs items into batches of at most `maxPerBatch`, at least one per worker when there are enough
 * items, balancing the estimated cost: the costliest item first onto the lightest batch (LPT), so the
 * workers finish together. The order inside a batch follows the input, and batches come back
 * costliest first so that the pool starts the long ones early.
 */
export function packBatches<T>(items: readonly Costed<T>[], workers: number, maxPerBatch: number): T[][] {
  if (items.length === 0) return [];
  const count = Math.min(items.length, Math.max(workers, Math.ceil(items.length / maxPerBatch)));
  const bins = Array.from({ length: count }, () => ({ cost: 0, entries: [] as { index: number; item: T }[] }));
  const order = items.map((entry, index) => ({ ...entry, index })).sort((a, b) => b.cost - a.cost || a.index - b.index);
  for (const entry of order) {
    const open = bins.filter((bin) => bin.entries.length < maxPerBatch);
    const lightest = (open.length > 0 ? open : bins).reduce((best, bin) => (bin.cost < best.cost ? bin : best));
    lightest.cost += entry.cost;
    lightest.entries.push({ index: entry.index, item: entry.item });
  }
  return bins
    .filter((bin) => bin.entries.length > 0)
    .sort((a, b) => b.cost - a.cost)
    .map((bin) => bin.entries.sort((a, b) => a.index - b.index).map((entry) => entry.item));
}
