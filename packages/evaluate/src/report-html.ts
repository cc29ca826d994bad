import type { EvaluationReport, PassRate } from './evaluation-report.js';

/** One evaluated task as the HTML page lists it. */
export interface HtmlTaskRow {
  readonly instanceId: string;
  readonly repository: string;
  readonly level: string | null;
  readonly outcome: string;
  readonly detail: string;
}

/**
 * One self-contained HTML page (no script, no external file: styles inline, charts as inline SVG) with
 * the report's tables and bar charts of pass@1 per context level, per repository, per complexity and
 * per solution length, and the outcome of every task. Every text is escaped.
 */
export function reportHtml(report: EvaluationReport, tasks: readonly HtmlTaskRow[]): string {
  const sections = [
    ['Pass@1 per context level', report.by_level],
    ['Pass@1 per repository', report.by_repository],
    ['Pass@1 per cyclomatic complexity', report.by_complexity],
    ['Pass@1 per solution length (tokens)', report.by_solution_length],
  ] as const;
  const outcomeCounts: [string, number][] = [
    ['resolved', report.resolved_instances],
    ['unresolved', report.unresolved_instances],
    ['empty', report.empty_patch_instances],
    ['patch failed', report.patch_failed_ids.length],
    ['timeout', report.timeout_ids.length],
    ['error', report.error_instances - report.patch_failed_ids.length - report.timeout_ids.length],
    ['no prediction', report.incomplete_ids.length],
  ];
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${escapeHtml(`repocod evaluation ${report.run_id}: ${report.model}`)}</title>
<style>
body { font-family: system-ui, sans-serif; margin: 2rem; color: #1f2328; max-width: 72rem; }
h1 { font-size: 1.4rem; } h2 { font-size: 1.1rem; margin-top: 2rem; }
table { border-collapse: collapse; margin: 0.5rem 0; }
td, th { padding: 0.2rem 0.7rem; border-bottom: 1px solid #d0d7de; }
th { text-align: left; } td.n { text-align: right; font-variant-numeric: tabular-nums; }
.headline { font-size: 2rem; font-weight: 600; }
.resolved { color: #1a7f37; } .unresolved { color: #cf222e; }
svg text { font-size: 12px; font-family: system-ui, sans-serif; }
</style>
</head>
<body>
<h1>${escapeHtml(`Evaluation ${report.run_id} · ${report.model}`)}</h1>
<p class="headline" id="pass-at-1">pass@1 ${percent(report.pass_at_1)}</p>
<p>${report.resolved_instances} of ${report.total_instances} tasks resolved.</p>
<table id="outcomes"><tr><th>outcome</th><th>tasks</th></tr>
${outcomeCounts.map(([name, count]) => `<tr><td>${escapeHtml(name)}</td><td class="n">${count}</td></tr>`).join('\n')}
</table>
${sections.map(([title, rates]) => section(title, rates)).join('\n')}
<h2>Tasks</h2>
<table id="tasks"><tr><th>instance</th><th>repository</th><th>level</th><th>outcome</th><th>detail</th></tr>
${tasks
  .map(
    (task) =>
      `<tr><td>${escapeHtml(task.instanceId)}</td><td>${escapeHtml(task.repository)}</td>` +
      `<td>${escapeHtml(task.level ?? 'unknown')}</td><td ` +
      `class="${escapeHtml(task.outcome)}">${escapeHtml(task.outcome)}</td>` +
      `<td>${escapeHtml(task.detail)}</td></tr>`,
  )
  .join('\n')}
</table>
</body>
</html>
`;
}

function section(title: string, rates: readonly PassRate[]): string {
  const id = title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  const rows = rates
    .map(
      (rate) =>
        `<tr><td>${escapeHtml(rate.group)}</td><td class="n">${rate.tasks}</td><td class="n">${rate.resolved}</td>` +
        `<td class="n">${percent(rate.passAt1)}</td></tr>`,
    )
    .join('\n');
  return `<h2>${escapeHtml(title)}</h2>
${barChart(id, rates)}
<table id="${id}"><tr><th>group</th><th>tasks</th><th>resolved</th><th>pass@1</th></tr>
${rows}
</table>`;
}

const BAR_HEIGHT = 22;
const LABEL_WIDTH = 170;
const BAR_WIDTH = 420;

/** Horizontal bars, one per group, the bar's length its pass@1 (0 to 100%), the figure beside it. */
function barChart(id: string, rates: readonly PassRate[]): string {
  const height = rates.length * BAR_HEIGHT + 8;
  const bars = rates
    .map((rate, index) => {
      const y = index * BAR_HEIGHT + 4;
      const width = Math.round(rate.passAt1 * BAR_WIDTH);
      return (
        `<text x="${LABEL_WIDTH - 8}" y="${y + 15}" text-anchor="end">${escapeHtml(rate.group)}</text>` +
        `<rect x="${LABEL_WIDTH}" y="${y + 2}" width="${BAR_WIDTH}" height="${BAR_HEIGHT - 6}" fill="#eaeef2"/>` +
        `<rect class="bar" data-group="${escapeHtml(rate.group)}" data-pass="${rate.passAt1}" x="${LABEL_WIDTH}" ` +
        `y="${y + 2}" ` +
        `width="${width}" height="${BAR_HEIGHT - 6}" fill="#2da44e"/>` +
        `<text x="${LABEL_WIDTH + BAR_WIDTH + 8}" y="${y + 15}">` +
        `${percent(rate.passAt1)} (${rate.resolved}/${rate.tasks})</text>`
      );
    })
    .join('\n');
  return (
    `<svg id="chart-${id}" role="img" width="${LABEL_WIDTH + BAR_WIDTH + 120}" height="${height}" ` +
    `xmlns="http://www.w3.org/2000/svg">
${bars}
</svg>`
  );
}

function percent(value: number): string {
  return `${(value * 100).toFixed(1)}%`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
