import type { FreshRepository, ReleaseFreshness } from './release-freshness.js';
import { FRESHNESS_RECORD } from './release-freshness.js';
import { TASK_RECORD } from './task-record.js';

/**
 * The dataset card's "Freshness" section of a version built with `--changed-since`: the cutoff, what a body's date
 * is, and per repository its base commit and date and the oldest and newest body date of its tasks.
 */
export function freshnessSection(version: string, freshness: ReleaseFreshness): string {
  const cutoff = freshness.changed_since;
  const diffed = freshness.repositories.filter((entry) => entry.release_diff !== undefined);
  return [
    '## Freshness',
    '',
    ...(diffed.length === 0
      ? blameParagraph(cutoff)
      : releaseDiffParagraph(cutoff, diffed.length < freshness.repositories.length)),
    '',
    '| repository | base commit | committed | tasks | oldest body | newest body |',
    '|---|---|---|---|---|---|',
    ...freshness.repositories.map(
      (entry) =>
        `| ${entry.repo} | \`${entry.base_commit.slice(0, 12)}\` | ${entry.base_committed_at} | ${entry.tasks} | ` +
        `${entry.oldest_body_changed_at} | ${entry.newest_body_changed_at} |`,
    ),
    '',
    ...(diffed.length === 0 ? [] : [...diffed.flatMap(releaseDiffLines), '']),
    `Each task's body commit and date are in \`${version}/${TASK_RECORD}\` (\`body_commit\`, \`body_changed_at\`);`,
    `the cutoff and the base commits in \`${version}/${FRESHNESS_RECORD}\`.`,
    '',
  ].join('\n');
}

/** What a body's date is when every repository was dated by git blame (the text of versions before release diffs). */
function blameParagraph(cutoff: string): string[] {
  return [
    `Every task's body was written or changed after **${cutoff}**, as of the base commits below: the newest code`,
    'line of the body (the lines a model writes; a docstring or comment change does not count) has a later author',
    'time by `git blame -w -M -C` at the base commit (whitespace-only changes ignored, lines moved within a file or',
    'to another file of the same commit followed). A model trained on data up to the cutoff cannot have seen these',
    'bodies as they are; `repocod evaluate --since DATE` scores a model only on the tasks whose body changed on or',
    'after its own cutoff.',
  ];
}

/**
 * The same when some repository, a release's sdist without history, was dated by release diff; `blamed` when others
 * were dated by git blame, whose rule is then stated too.
 */
function releaseDiffParagraph(cutoff: string, blamed: boolean): string[] {
  return [
    `Every task's body was written or changed after **${cutoff}**, as of the base commits below.`,
    ...(blamed
      ? [
          'For a repository with its history, the newest code line of the body (the lines a model writes; a docstring',
          'or comment change does not count) has a later author time by `git blame -w -M -C` at the base commit',
          '(whitespace-only changes ignored, lines moved within a file or to another file of the same commit',
          'followed).',
        ]
      : []),
    "For a repository whose source is a release's sdist (no history), the body (the lines a model writes) differs",
    "from the same function's (same file in the package, same qualified name) in the last release before the",
    'cutoff, or the function is not there: a release diff, whitespace and blank and comment-only lines aside; such a',
    'body is dated at the newer release (below). A model trained on data up to the cutoff cannot have seen these',
    'bodies as they are; `repocod evaluate --since DATE` scores a model only on the tasks whose body changed on or',
    'after its own cutoff.',
  ];
}

function releaseDiffLines(entry: FreshRepository): string[] {
  const diff = entry.release_diff;
  if (diff === undefined) return [];
  return [
    `- ${entry.repo}: dated by release diff, ${diff.version} (released ${diff.released_at}) against`,
    `  ${diff.against_version} (released ${diff.against_released_at}, sdist sha256`,
    `  \`${diff.against_sha256}\`): a changed body's \`body_commit\` is`,
    `  \`release-diff:${diff.against_version}..${diff.version}\` and its date ${diff.version}'s release (the base`,
    "  commit is this tool's snapshot of the sdist's files, and its date the snapshot's, not the project's).",
  ];
}
