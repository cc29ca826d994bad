import { cutoffText, repositoryCells } from './changes-section.js';
import type { AddedReason, RemovedReason } from './version-change-reasons.js';
import { ADDED_REASONS, REASON_TITLES, REMOVED_REASONS } from './version-change-reasons.js';
import type { ChangedTask, VersionDiffReport } from './version-diff.js';

/** `repocod report --diff` for the terminal: the versions, the counts, then every added, removed and changed task. */
export function versionDiffText(report: VersionDiffReport): string {
  const { a, b } = report;
  const table = (rows: readonly (readonly (string | number)[])[]): string[] => {
    const widths = rows[0]?.map((_, column) => Math.max(...rows.map((cells) => String(cells[column]).length))) ?? [];
    return rows.map((cells) =>
      `  ${cells.map((cell, column) => String(cell).padEnd(widths[column] ?? 0)).join('  ')}`.trimEnd(),
    );
  };
  const changed = report.kept.filter((task) => task.change === 'changed-body');
  const reasons = <R extends RemovedReason | AddedReason>(
    title: string,
    order: readonly R[],
    tasks: readonly ChangedTask<R>[],
    sign: string,
  ): string[] =>
    tasks.length === 0
      ? []
      : [
          '',
          `${title} (${tasks.length})`,
          ...order.flatMap((reason) => {
            const of = tasks.filter((task) => task.reason === reason);
            return of.length === 0
              ? []
              : [
                  `  ${reason}: ${of.length}, ${REASON_TITLES[reason]}`,
                  ...of.map((task) => `    ${sign} ${task.instanceId}  (${task.detail})`),
                ];
          }),
        ];
  return `${[
    `${a.version} → ${b.version}: ${report.kept.length} kept (${report.kept.length - changed.length} same body, ` +
      `${changed.length} changed body), ${report.added.length} added, ${report.removed.length} removed`,
    ...[a, b].map((side) => `  ${side.version}  ${side.tasks} tasks, cutoff ${cutoffText(side)}`),
    '',
    'base commits',
    ...table([
      ['version', 'repository', 'base commit', 'committed', 'tasks'],
      ...[a, b].flatMap((side) =>
        side.repositories.map((repository) => [
          side.version,
          repository.repository,
          repository.baseCommit.slice(0, 12),
          repository.baseCommitAt,
          repository.tasks,
        ]),
      ),
    ]),
    '',
    'per repository',
    ...table([
      ['repository', a.version, b.version, 'same body', 'changed body', 'added', 'removed'],
      ...report.repositories.map(repositoryCells),
    ]),
    ...reasons('removed', REMOVED_REASONS, report.removed, '-'),
    ...reasons('added', ADDED_REASONS, report.added, '+'),
    ...(changed.length === 0
      ? []
      : [
          '',
          `kept with a changed body (${changed.length})`,
          ...changed.map(
            (task) => `    ~ ${task.instanceId}${task.instanceIdInB === undefined ? '' : ` → ${task.instanceIdInB}`}`,
          ),
        ]),
  ].join('\n')}\n`;
}
