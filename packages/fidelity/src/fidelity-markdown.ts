import { CONTEXT_LEVELS } from '@repocod/core';
import type { BinComparison } from './bin-comparison.js';
import type { CellComparison, FidelityComparison, RepositoryComparison } from './fidelity-comparison.js';
import { fidelityLine } from './fidelity-comparison.js';

/** A comparison as Markdown: what is compared with what, the table, the fidelity lines and the bins. */
export function fidelityMarkdown(
  title: string,
  comparison: FidelityComparison,
  bins: readonly BinComparison[],
): string {
  const rows = [...comparison.rows, comparison.total];
  return [
    `### ${title}`,
    '',
    `REPOCOD's figures: ${comparison.reference.what} Source: ${comparison.reference.source}.`,
    "Each cell is ours / REPOCOD's (ours minus REPOCOD's); #NL and #GT are mean prompt and solution tokens",
    '(cl100k_base), cyclo the mean cyclomatic complexity. "total" is over the repositories with tasks of ours.',
    '',
    '| repository | level | tasks | #NL | #GT | cyclo |',
    '|---|---|---|---|---|---|',
    ...rows.flatMap((row) =>
      (['all', ...CONTEXT_LEVELS] as const).map(
        (level) =>
          `| ${level === 'all' ? row.repository : ''} | ${level} | ${cellText(row.cells[level], 'tasks')} | ` +
          `${cellText(row.cells[level], 'nl')} | ${cellText(row.cells[level], 'gt')} | ` +
          `${cellText(row.cells[level], 'cyclo')} |`,
      ),
    ),
    '',
    'Fidelity per repository (task count ratio; differences of the means over all levels):',
    '',
    ...rows.map((row: RepositoryComparison) => `- ${fidelityLine(row)}`),
    ...bins.flatMap((comparison) => [
      '',
      `Tasks by ${comparison.measure} (REPOCOD: the full benchmark's Figure 4), count and share:`,
      '',
      `| ${comparison.measure} | ours | REPOCOD |`,
      '|---|---|---|',
      ...comparison.bins.map(
        (bin) =>
          `| ${bin.label} | ${bin.ours} (${bin.oursShare.toFixed(1)}%) | ` +
          `${bin.theirs} (${bin.theirsShare.toFixed(1)}%) |`,
      ),
    ]),
    '',
  ].join('\n');
}

/** `74 / 43 (+31)`, `512.3 / 498.1 (+14.2)`, `0 / 3 (−3)`; `–` for a mean without tasks. */
export function cellText(cell: CellComparison, field: 'tasks' | 'nl' | 'gt' | 'cyclo'): string {
  const format = (value: number | null): string =>
    value === null ? '–' : field === 'tasks' ? String(value) : value.toFixed(1);
  const ours = cell.ours[field];
  if (cell.theirs === null) return `${format(ours)} / –`;
  const theirs = cell.theirs[field];
  if (ours === null || theirs === null) return `${format(ours)} / ${format(theirs)}`;
  const delta = Math.round((ours - theirs) * 10) / 10;
  const sign = delta > 0 ? '+' : delta < 0 ? '−' : '±';
  const size = field === 'tasks' ? String(Math.abs(delta)) : Math.abs(delta).toFixed(1);
  return `${format(ours)} / ${format(theirs)} (${sign}${size})`;
}
