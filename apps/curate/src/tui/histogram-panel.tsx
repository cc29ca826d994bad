import { CONTEXT_LEVELS, type ContextLevel } from '@repocod/core';
import type { TaskOverview } from '@repocod/pipeline';
import type { ReactElement } from 'react';
import { type GroupedHistogram, groupedHistogram } from './histogram.js';
import { ScrollView, useScrollOffset } from './scroll-view.js';
import { type Colour, line, type Span, type StyledLine } from './styled-line.js';
import { displayWidth, fit } from './truncate.js';

/**
 * How the tasks in view spread, per level: complexity and solution length as text bars, the levels
 * side by side on the same bins so that a row compares them. Each level's bars are scaled to its
 * own largest bin: the levels differ in size, and the shape is what a curator compares.
 */

export interface HistogramPanelProps {
  readonly tasks: readonly TaskOverview[];
  readonly width: number;
  readonly height: number;
  readonly active: boolean;
}

export const LEVEL_COLOURS: Readonly<Record<ContextLevel, Colour>> = {
  'self-contained': 'blue',
  'file-level': 'magenta',
  'repo-level': 'cyan',
};

const MAX_GROUP_WIDTH = 40;

const EIGHTHS = ['', '▏', '▎', '▍', '▌', '▋', '▊', '▉'];

/** A bar of `fraction` of `width` columns, to an eighth of a column; a non-zero count always shows. */
export function bar(fraction: number, width: number): string {
  const eighths = Math.round(Math.min(1, Math.max(0, fraction)) * width * 8);
  const shown = fraction > 0 && eighths === 0 ? 1 : eighths;
  return `${'█'.repeat(Math.floor(shown / 8))}${EIGHTHS[shown % 8] ?? ''}`;
}

interface Metric {
  readonly title: string;
  readonly label: string;
  readonly value: (task: TaskOverview) => number;
}

const METRICS: readonly Metric[] = [
  { title: 'complexity (cc) per level', label: 'cc', value: (task) => task.complexity },
  { title: 'solution length (lines) per level', label: 'lines', value: (task) => task.solutionLines },
];

/** The panel's lines: each metric's title, the levels' header, and a row per bin. */
export function histogramLines(tasks: readonly TaskOverview[], width: number): StyledLine[] {
  if (tasks.length === 0) return [line('no task to count: the filters leave none', { dim: true })];
  const lines: StyledLine[] = [];
  for (const metric of METRICS) {
    const histogram = groupedHistogram(tasks, metric.value, (task) => task.level, CONTEXT_LEVELS);
    if (lines.length > 0) lines.push(line(''));
    lines.push(line(`${metric.title} · ${tasks.length} tasks`, { bold: true }));
    lines.push(...metricRows(histogram, metric.label, width));
  }
  return lines;
}

function metricRows(histogram: GroupedHistogram<ContextLevel>, label: string, width: number): StyledLine[] {
  const labelWidth = Math.max(displayWidth(label), ...histogram.bins.map((bin) => displayWidth(bin.label)));
  // Past ~40 columns a longer bar shows nothing more and pushes the counts away from the labels.
  const groupWidth = Math.min(
    MAX_GROUP_WIDTH,
    Math.max(8, Math.floor((width - labelWidth) / Math.max(1, histogram.groups.length))),
  );
  const countWidth = Math.max(
    2,
    ...histogram.groups.flatMap((group) => group.counts.map((count) => String(count).length)),
  );
  // A space before the bar and one before the count.
  const barWidth = Math.max(1, groupWidth - countWidth - 2);
  const header: Span[] = [{ text: fit(label, labelWidth), dim: true }];
  for (const group of histogram.groups) {
    header.push({
      text: ` ${fit(`${group.group} (${group.total})`, groupWidth - 1)}`,
      color: LEVEL_COLOURS[group.group],
    });
  }
  const rows: StyledLine[] = [header];
  histogram.bins.forEach((bin, index) => {
    const spans: Span[] = [{ text: fit(bin.label, labelWidth, 'right'), dim: true }];
    for (const group of histogram.groups) {
      const count = group.counts[index] ?? 0;
      const largest = Math.max(...group.counts);
      spans.push({
        text: ` ${fit(bar(largest === 0 ? 0 : count / largest, barWidth), barWidth)}`,
        color: LEVEL_COLOURS[group.group],
      });
      spans.push({
        text: ` ${fit(count === 0 ? '·' : String(count), countWidth, 'right')}`,
        ...(count === 0 ? { dim: true } : {}),
      });
    }
    rows.push(spans);
  });
  return rows;
}

/** The histograms in a scrollable window (both metrics rarely fit an 80×24 terminal with the table's chrome). */
export function HistogramPanel({ tasks, width, height, active }: HistogramPanelProps): ReactElement {
  const lines = histogramLines(tasks, width);
  const { offset } = useScrollOffset({ count: lines.length, height, active });
  return <ScrollView lines={lines} width={width} height={height} offset={offset} />;
}
