/**
 * Histograms of integer quantities (complexity, lines, tokens), to see how the tasks spread before
 * choosing a selection. Bins are chosen once for all groups so that the groups (the levels) can be
 * compared row by row.
 */

/** The integers `low`..`high` (inclusive). */
export interface Bin {
  readonly low: number;
  readonly high: number;
  readonly label: string;
}

export interface GroupCounts<G extends string = string> {
  readonly group: G;
  readonly counts: readonly number[];
  readonly total: number;
}

export interface GroupedHistogram<G extends string = string> {
  readonly bins: readonly Bin[];
  readonly groups: readonly GroupCounts<G>[];
}

/** Up to this many distinct values, each gets its bin: small ranges read best value by value. */
const MAX_INTEGER_BINS = 10;

/** About this many bins otherwise: enough to see a shape, few enough to fit a terminal. */
const TARGET_BINS = 8;

/**
 * Bins covering the values: one per integer when the range is small, else about `target`
 * equal-width bins whose width is a round number (1, 2, 2.5 or 5 times a power of ten) and whose
 * edges are multiples of it, so that the labels read 0-4, 5-9, … rather than 1-4, 5-8, ….
 */
export function integerBins(values: readonly number[], target = TARGET_BINS): Bin[] {
  if (values.length === 0) return [];
  const min = Math.floor(Math.min(...values));
  const max = Math.floor(Math.max(...values));
  const span = max - min + 1;
  const width = span <= Math.max(MAX_INTEGER_BINS, target) ? 1 : roundWidth(span / target);
  const start = width === 1 ? min : Math.floor(min / width) * width;
  const bins: Bin[] = [];
  for (let low = start; low <= max; low += width) {
    const high = low + width - 1;
    bins.push({ low, high, label: width === 1 ? String(low) : `${low}-${high}` });
  }
  return bins;
}

/** How many values fall in each bin (values outside every bin are not counted). */
export function countInBins(values: readonly number[], bins: readonly Bin[]): number[] {
  const counts = bins.map(() => 0);
  for (const value of values) {
    const index = bins.findIndex((bin) => Math.floor(value) >= bin.low && Math.floor(value) <= bin.high);
    if (index >= 0) counts[index] = (counts[index] ?? 0) + 1;
  }
  return counts;
}

/** A histogram of `value` per group, on bins shared by all groups (groups keep the order given). */
export function groupedHistogram<T, G extends string>(
  items: readonly T[],
  value: (item: T) => number,
  group: (item: T) => G,
  groups: readonly G[],
): GroupedHistogram<G> {
  const bins = integerBins(items.map(value));
  return {
    bins,
    groups: groups.map((name) => {
      const members = items.filter((item) => group(item) === name).map(value);
      return { group: name, counts: countInBins(members, bins), total: members.length };
    }),
  };
}

function roundWidth(raw: number): number {
  const power = 10 ** Math.floor(Math.log10(raw));
  // 2.5 only from 10 up: bins must hold whole integers.
  const steps = power >= 10 ? [1, 2, 2.5, 5, 10] : [1, 2, 5, 10];
  const step = steps.find((candidate) => candidate * power >= raw) ?? 10;
  return Math.max(1, Math.round(step * power));
}
