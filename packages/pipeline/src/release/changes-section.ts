import type { AddedReason, RemovedReason } from './version-change-reasons.js';
import { ADDED_REASONS, REASON_TITLES, REMOVED_REASONS } from './version-change-reasons.js';
import type { RepositoryChanges, VersionDiffReport, VersionSummary } from './version-diff.js';

/**
 * The card's "Changes since VERSION_A" section of version B: each version's cutoff and base commits, the
 * per-repository counts and the reasons' totals (a reason no task has is left out). The task lists are
 * `repocod report --diff`'s.
 */
export function changesSection(report: VersionDiffReport): string {
  const { a, b } = report;
  const row = (cells: readonly (string | number)[]): string => `| ${cells.join(' | ')} |`;
  const reasonRows = <R extends RemovedReason | AddedReason>(reasons: readonly R[], counts: Record<R, number>) =>
    reasons.filter((reason) => counts[reason] > 0).map((reason) => row([REASON_TITLES[reason], counts[reason]]));
  const removed = reasonRows(REMOVED_REASONS, report.removedByReason);
  const added = reasonRows(ADDED_REASONS, report.addedByReason);
  const kept = report.kept.length;
  const changed = report.kept.filter((task) => task.change === 'changed-body').length;
  return [
    `## Changes since ${a.version}`,
    '',
    `Version ${b.version} against ${a.version} (\`repocod report --diff ${a.version} ${b.version}\` lists every ` +
      `task): ` +
      `${kept} task(s) kept (the same function in both; ${changed} with a changed body), ${report.added.length} ` +
      `added, ` +
      `${report.removed.length} removed. Each added or removed task has the first reason that explains it, from the ` +
      `catalog ` +
      `that built ${b.version}.`,
    '',
    '| version | cutoff | repository | base commit | committed | tasks |',
    '|---|---|---|---|---|---|',
    ...[a, b].flatMap((side) =>
      side.repositories.map((repository) =>
        row([
          side.version,
          cutoffText(side),
          repository.repository,
          `\`${repository.baseCommit.slice(0, 12)}\``,
          repository.baseCommitAt.slice(0, 10),
          repository.tasks,
        ]),
      ),
    ),
    '',
    row(['repository', a.version, b.version, 'kept, same body', 'kept, changed body', 'added', 'removed']),
    '|---|---|---|---|---|---|---|',
    ...report.repositories.map((repository) => row(repositoryCells(repository))),
    '',
    ...(removed.length === 0 ? [] : [`| removed: why | tasks |`, '|---|---|', ...removed, '']),
    ...(added.length === 0 ? [] : [`| added: why | tasks |`, '|---|---|', ...added, '']),
  ].join('\n');
}

/** A version's cutoff for people: the day, and where it came from. */
export function cutoffText(side: VersionSummary): string {
  if (side.cutoff === null) return 'not recorded';
  return side.from === 'option' ? `${side.cutoff.slice(0, 10)} (given by --cutoff)` : side.cutoff.slice(0, 10);
}

/** A repository's row of the per-repository table, in the order of its header. */
export function repositoryCells(repository: RepositoryChanges): (string | number)[] {
  return [
    repository.repository,
    repository.inA,
    repository.inB,
    repository.sameBody,
    repository.changedBody,
    repository.added,
    repository.removed,
  ];
}
