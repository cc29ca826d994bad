import { CONTEXT_LEVELS } from '@repocod/core';
import type { BinComparison } from './bin-comparison.js';
import type { FidelityComparison, RepositoryComparison } from './fidelity-comparison.js';
import { fidelityLine } from './fidelity-comparison.js';
import { cellText } from './fidelity-markdown.js';

export interface HtmlFidelitySection {
  readonly title: string;
  readonly comparison: FidelityComparison;
  readonly bins: readonly BinComparison[];
}

/**
 * One self-contained page (styles inline, charts as inline SVG, no script) with each section's chart of
 * task counts per repository (ours beside REPOCOD's), its table cell by cell, its fidelity lines and its
 * bins. Every text is escaped.
 */
export function fidelityHtml(title: string, sections: readonly HtmlFidelitySection[]): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${escapeHtml(title)}</title>
<style>
body { font-family: system-ui, sans-serif; margin: 2rem; color: #1f2328; max-width: 80rem; }
h1 { font-size: 1.4rem; } h2 { font-size: 1.1rem; margin-top: 2rem; }
table { border-collapse: collapse; margin: 0.5rem 0; }
td, th { padding: 0.2rem 0.7rem; border-bottom: 1px solid #d0d7de; }
th { text-align: left; } td.n { text-align: right; font-variant-numeric: tabular-nums; }
tr.repository td { border-top: 2px solid #8c959f; font-weight: 600; }
.ours { fill: #0969da; } .theirs { fill: #bf8700; }
svg text { font-size: 12px; font-family: system-ui, sans-serif; }
</style>
</head>
<body>
<h1>${escapeHtml(title)}</h1>
${sections.map((section, index) => sectionHtml(section, index)).join('\n')}
</body>
</html>
`;
}

function sectionHtml(section: HtmlFidelitySection, index: number): string {
  const { comparison } = section;
  const rows = [...comparison.rows, comparison.total];
  return `<section id="section-${index + 1}">
<h2>${escapeHtml(section.title)}</h2>
<p>REPOCOD's figures: ${escapeHtml(comparison.reference.what)} Source: ${escapeHtml(comparison.reference.source)}.</p>
${countChart(comparison.rows)}
<table class="cells"><tr><th>repository</th><th>level</th><th>tasks</th><th>#NL</th><th>#GT</th><th>cyclo</th></tr>
${rows
  .flatMap((row) =>
    (['all', ...CONTEXT_LEVELS] as const).map(
      (level) =>
        `<tr${level === 'all' ? ' class="repository"' : ''}>` +
        `<td>${level === 'all' ? escapeHtml(row.repository) : ''}</td>` +
        `<td>${level}</td>${(['tasks', 'nl', 'gt', 'cyclo'] as const)
          .map((field) => `<td class="n">${escapeHtml(cellText(row.cells[level], field))}</td>`)
          .join('')}</tr>`,
    ),
  )
  .join('\n')}
</table>
<ul class="fidelity">
${rows.map((row) => `<li>${escapeHtml(fidelityLine(row))}</li>`).join('\n')}
</ul>
${section.bins.map(binTable).join('\n')}
</section>`;
}

/** Horizontal bars per repository: ours (blue) above REPOCOD's (amber), scaled to the largest count. */
function countChart(rows: readonly RepositoryComparison[]): string {
  const largest = Math.max(1, ...rows.flatMap((row) => [row.cells.all.ours.tasks, row.cells.all.theirs?.tasks ?? 0]));
  const label = 130;
  const width = 520;
  const rowHeight = 30;
  const bar = (count: number): number => Math.round((count / largest) * width);
  return (
    `<svg class="chart" width="${label + width + 60}" height="${rows.length * rowHeight + 20}" role="img" ` +
    `aria-label="task counts per repository, ours and REPOCOD's">
${rows
  .map((row, index) => {
    const y = index * rowHeight;
    const ours = row.cells.all.ours.tasks;
    const theirs = row.cells.all.theirs?.tasks ?? 0;
    return (
      `<text x="0" y="${y + 17}">${escapeHtml(row.repository)}</text>` +
      `<rect class="ours" x="${label}" y="${y + 4}" width="${bar(ours)}" height="10"><title>ours: ` +
      `${ours}</title></rect>` +
      `<text x="${label + bar(ours) + 4}" y="${y + 13}">${ours}</text>` +
      `<rect class="theirs" x="${label}" y="${y + 15}" width="${bar(theirs)}" height="10">` +
      `<title>REPOCOD: ${theirs}</title></rect>` +
      `<text x="${label + bar(theirs) + 4}" y="${y + 24}">${theirs}</text>`
    );
  })
  .join('\n')}
<text x="${label}" y="${rows.length * rowHeight + 15}"><tspan class="ours">■</tspan> ours   ` +
    `<tspan class="theirs">■</tspan> REPOCOD</text>
</svg>`
  );
}

function binTable(comparison: BinComparison): string {
  return `<table class="bins"><tr><th>${escapeHtml(comparison.measure)}</th><th>ours</th><th>REPOCOD</th></tr>
${comparison.bins
  .map(
    (bin) =>
      `<tr><td>${escapeHtml(bin.label)}</td><td class="n">${bin.ours} (${bin.oursShare.toFixed(1)}%)</td>` +
      `<td class="n">${bin.theirs} (${bin.theirsShare.toFixed(1)}%)</td></tr>`,
  )
  .join('\n')}
</table>`;
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
