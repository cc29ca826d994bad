import type { EvaluationReport, PassRate } from './evaluation-report.js';

/** The report as people read it in a terminal: the outcome counts, then pass@1 by each grouping. */
export function reportText(report: EvaluationReport): string {
  const percent = (value: number): string => `${(value * 100).toFixed(1)}%`;
  const lines = [
    `run ${report.run_id} · model ${report.model}`,
    `pass@1 ${percent(report.pass_at_1)}: ${report.resolved_instances} of ${report.total_instances} tasks resolved`,
    `outcomes: ${report.resolved_instances} resolved, ${report.unresolved_instances} unresolved, ` +
      `${report.empty_patch_instances} empty, ${report.patch_failed_ids.length} patch failed, ` +
      `${report.timeout_ids.length} ` +
      `timeout, ${report.error_instances - report.patch_failed_ids.length - report.timeout_ids.length} error, ` +
      `${report.incomplete_ids.length} without prediction`,
  ];
  const { since } = report;
  if (since !== undefined)
    lines.push(
      `since ${since.date}: ${since.scored_instances} task(s) scored, whose body changed on or after it; ` +
        `${since.left_out_instances} left out (${since.changed_before_ids.length} changed before it, ` +
        `${since.without_body_date_ids.length} without a body date)`,
    );
  for (const [title, rates] of [
    ['repository', report.by_repository],
    ['context level', report.by_level],
    ['complexity', report.by_complexity],
    ['solution tokens', report.by_solution_length],
  ] as const) {
    lines.push('', ...rateTable(title, rates, percent));
  }
  return `${lines.join('\n')}\n`;
}

function rateTable(title: string, rates: readonly PassRate[], percent: (value: number) => string): string[] {
  const rows = rates.map((rate) => [rate.group, String(rate.tasks), String(rate.resolved), percent(rate.passAt1)]);
  const header = [title, 'tasks', 'resolved', 'pass@1'];
  const widths = header.map((cell, column) => Math.max(cell.length, ...rows.map((row) => (row[column] ?? '').length)));
  const format = (row: readonly string[]): string =>
    row
      .map((cell, column) => (column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0)))
      .join('  ');
  return [format(header), ...rows.map(format)];
}
