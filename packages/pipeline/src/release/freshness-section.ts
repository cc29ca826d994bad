import type { ReleaseFreshness } from './release-freshness.js';
import { FRESHNESS_RECORD } from './release-freshness.js';
import { TASK_RECORD } from './task-record.js';

/**
 * The dataset card's "Freshness" section of a version built with `--changed-since`: the cutoff, what a body's date
 * is, and per repository its base commit and date and the oldest and newest body date of its tasks.
 */
export function freshnessSection(version: string, freshness: ReleaseFreshness): string {
  const cutoff = freshness.changed_since;
  return [
    '## Freshness',
    '',
    `Every task's body was written or changed after **${cutoff}**, as of the base commits below: the newest code`,
    'line of the body (the lines a model writes; a docstring or comment change does not count) has a later author',
    'time by `git blame -w -M -C` at the base commit (whitespace-only changes ignored, lines moved within a file or',
    'to another file of the same commit followed). A model trained on data up to the cutoff cannot have seen these',
    'bodies as they are; `repocod evaluate --since DATE` scores a model only on the tasks whose body changed on or',
    'after its own cutoff.',
    '',
    '| repository | base commit | committed | tasks | oldest body | newest body |',
    '|---|---|---|---|---|---|',
    ...freshness.repositories.map(
      (entry) =>
        `| ${entry.repo} | \`${entry.base_commit.slice(0, 12)}\` | ${entry.base_committed_at} | ${entry.tasks} | \
${entry.oldest_body_changed_at} | ${entry.newest_body_changed_at} |`,
    ),
    '',
    `Each task's body commit and date are in \`${version}/${TASK_RECORD}\` (\`body_commit\`, \`body_changed_at\`);`,
    `the cutoff and the base commits in \`${version}/${FRESHNESS_RECORD}\`.`,
    '',
  ].join('\n');
}
