import type { ReferenceBin, ReferenceBins } from './reference-table.js';
import type { MeasuredTask } from './task-statistics.js';

/**
 * Our tasks over the bins of REPOCOD's Figure 4 (solution tokens, cyclomatic complexity) beside its
 * counts. The shares are what compare: REPOCOD's figure is of its 980 tasks, ours of however many.
 */
export interface BinComparison {
  readonly measure: 'solution tokens' | 'cyclomatic complexity';
  readonly bins: readonly BinRow[];
}

export interface BinRow {
  readonly label: string;
  readonly ours: number;
  readonly oursShare: number;
  readonly theirs: number;
  readonly theirsShare: number;
}

export function compareBins(tasks: readonly MeasuredTask[], reference: ReferenceBins): BinComparison[] {
  return [
    binRows(
      'solution tokens',
      reference.solutionTokens,
      tasks.map((task) => task.solutionTokens),
    ),
    binRows(
      'cyclomatic complexity',
      reference.complexity,
      tasks.map((task) => task.complexity),
    ),
  ];
}

function binRows(
  measure: BinComparison['measure'],
  bins: readonly ReferenceBin[],
  values: readonly number[],
): BinComparison {
  const theirsTotal = bins.reduce((sum, bin) => sum + bin.tasks, 0);
  const share = (part: number, whole: number): number => (whole === 0 ? 0 : Math.round((part / whole) * 1000) / 10);
  return {
    measure,
    bins: bins.map((bin, index) => {
      // A value past the last closed bin (a solution longer than REPOCOD's longest) counts in the last.
      const last = index === bins.length - 1;
      const ours = values.filter((value) => inBin(value, bin, last)).length;
      return {
        label: binLabel(bin),
        ours,
        oursShare: share(ours, values.length),
        theirs: bin.tasks,
        theirsShare: share(bin.tasks, theirsTotal),
      };
    }),
  };
}

/** Lower bounds are inclusive in both of the figure's measures; upper bounds as the bin says. */
function inBin(value: number, bin: ReferenceBin, last: boolean): boolean {
  const above = bin.from === null || value >= bin.from;
  const below = bin.to === null || last || (bin.toInclusive ? value <= bin.to : value < bin.to);
  return above && below;
}

function binLabel(bin: ReferenceBin): string {
  if (bin.from === null) return `≤ ${bin.to}`;
  if (bin.to === null) return `≥ ${bin.from}`;
  return bin.toInclusive ? `${bin.from}–${bin.to}` : `${bin.from}–${bin.to - 1}`;
}
