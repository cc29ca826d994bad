import { join } from 'node:path';
import { RepocodError } from '@repocod/core';
import type { PublishSummary } from '@repocod/pipeline';
import {
  DEFAULT_CATALOG_PATH,
  DEFAULT_RELEASE_FOLDER,
  openCatalog,
  publishStep,
  selectionOverReference,
} from '@repocod/pipeline';
import { changedSinceOption } from './changed-since-option.js';
import type { CommandIO } from './io.js';
import type { ParsedArgs } from './parse-args.js';
import { listOption, stringOption } from './parse-args.js';
import { PROJECT_ROOT, stateRoot } from './project-root.js';
import { pushOption } from './push-option.js';
import { repositoryOptions } from './repository-options.js';

export const PUBLISH_USAGE =
  `usage: repocod publish --version V [--out DIR] [--selection ID] [--keep INSTANCE_ID]... ` +
  `[--db FILE]
                       [--reference NAME] [--manifest FILE] [--source NAME=PATH] [--changed-since DATE]
                       [--diff-against VERSION]
                       [--push ORG/NAME [--hub-url URL]] [--dry-run]
       repocod publish --push ORG/NAME [--out DIR] [--hub-url URL] [--dry-run]

Writes the validated tasks of a selection (default: the latest) as version V of a release folder
(default out/release) in the Hub's layout: V/test-00000-of-00001.parquet, V/validation.jsonl (each
task's checks), V/tasks.jsonl (its level, lengths and complexity), data/test-00000-of-00001.parquet
(the default config, this version) and README.md, a dataset card whose header lists every version and
whose body gives the statistics and the validation summary.
Tasks that failed validation are left out unless kept with --keep; a task not validated stops the
release. A selection over a reference (repocod select --reference NAME) is released as a rebuild of it:
the card names the reference, its source and revision, carries its audit's headline (repocod report
--reference) and lists every row left out and every released task that differs from its row, each with
why; V/reference.jsonl has every row's fate. --reference NAME releases the newest selection over
that reference (or --selection ID, which must be over it). A task whose body the catalog dated (mine or
tasks --changed-since) has its body commit and date in V/tasks.jsonl (body_commit, body_changed_at).
--changed-since DATE, the cutoff the tasks were made with, is recorded with the version
(V/freshness.json, and the card's Freshness section: the cutoff, each repository's base commit and
date, the oldest and newest body date); every released task's body must have changed after it.
Earlier versions are kept as they are (a version is never rewritten); the difference from the
previous version is printed. --push uploads the whole folder to the dataset repository ORG/NAME
in one commit, creating it if needed (token from HF_TOKEN; --hub-url or HF_ENDPOINT for another
endpoint); into an empty folder the release already on the Hub is downloaded first. Without
--version, --push uploads the folder as it is (the rerun after a failed upload). --dry-run writes no
version and uploads nothing, and lists what would be (an empty folder is still filled from the Hub:
that changes nothing there).

When the folder already holds a version, the card ends with a section "Changes since VERSION" against the
latest of them (the version the folder's default config was until now), or the one --diff-against VERSION
names: each version's cutoff and base commits, the tasks per repository (kept with the same or a changed
body, added, removed) and how many were added or removed for each reason (repocod report --diff lists every
task; with --changed-since, a task whose body did not change since the cutoff is said so). A first version
has no such section.`;

export async function publishCommand(args: ParsedArgs, io: CommandIO): Promise<number> {
  if (args.positionals.length > 0) throw new RepocodError('usage', PUBLISH_USAGE);
  const version = stringOption(args, 'version');
  const pushTo = stringOption(args, 'push');
  if (version === undefined && pushTo === undefined)
    throw new RepocodError('usage', `give --version V (and/or --push ORG/NAME)\n\n${PUBLISH_USAGE}`);
  // Checked before the catalog is opened or anything is written: a bad name or a missing token
  // must not leave a half-published version behind.
  const push = pushOption(args);
  const catalog = await openCatalog(stringOption(args, 'db') ?? DEFAULT_CATALOG_PATH);
  try {
    const reference = stringOption(args, 'reference');
    const given = stringOption(args, 'selection');
    const summary = await publishStep(catalog, {
      version,
      out: stringOption(args, 'out') ?? join(PROJECT_ROOT, DEFAULT_RELEASE_FOLDER),
      selectionId:
        reference === undefined || version === undefined
          ? given
          : await selectionOverReference(catalog, reference, given),
      keep: listOption(args, 'keep'),
      push,
      dryRun: args.flags.get('dry-run') === true,
      stateRoot: stateRoot(),
      reference: { ...repositoryOptions(args), name: reference },
      changedSince: changedSinceOption(args),
      diffAgainst: stringOption(args, 'diff-against'),
    });
    io.out(formatPublish(summary));
    return 0;
  } finally {
    await catalog.close();
  }
}

const size = (bytes: number): string =>
  bytes < 10_000
    ? `${bytes} B`
    : bytes < 10_000_000
      ? `${(bytes / 1000).toFixed(1)} kB`
      : `${(bytes / 1_000_000).toFixed(1)} MB`;

export function formatPublish(summary: PublishSummary): string {
  const { release, content } = summary;
  const would = summary.dryRun ? 'would be ' : '';
  const lines: string[] = [];
  if (summary.dryRun) lines.push('dry run: nothing is written or uploaded');
  if (summary.downloaded !== null)
    lines.push(
      `from the Hub  versions ${summary.downloaded.versions.join(', ')} downloaded into ${summary.folder} ` +
        `(${summary.downloaded.files.length} files)`,
    );
  if (content !== null && summary.version !== null) {
    lines.push(
      `release ${summary.folder}: version ${summary.version} ${would}written, ${content.rows.length} of the ` +
        `${content.selected} task(s) of selection ${content.selectionId}`,
    );
    const left = content.leftOut.length === 0 ? '' : `; left out (failed validation): ${content.leftOut.length}`;
    const kept = content.kept.length === 0 ? '' : `; kept despite a failed check: ${content.kept.length}`;
    lines.push(
      `  validation ${content.counts.byStatus.passed} passed every check${left}${kept}; ${content.counts.flakyTests} ` +
        `flaky test(s) removed`,
    );
    for (const task of content.leftOut.slice(0, 10))
      lines.push(`    - ${task.instanceId} (${task.check}: ${task.detail})`);
    if (content.leftOut.length > 10) lines.push(`    … and ${content.leftOut.length - 10} more`);
    for (const task of content.kept) lines.push(`    kept ${task.instanceId} (${task.check}: ${task.detail})`);
    if (content.reference !== null)
      lines.push(
        `  reference  ${content.reference.name}: ${content.reference.rows - content.reference.leftOut} of its ` +
          `${content.reference.rows} row(s) released, ${content.reference.leftOut} left out, ` +
          `${content.reference.changed} ` +
          `differ from their row (the card and ${summary.version}/reference.jsonl say why)`,
        `             ${content.reference.headline}`,
      );
    if (content.freshness !== null)
      lines.push(
        `  freshness  bodies changed after ${content.freshness.changed_since}: ${content.freshness.repositories
          .map((entry) => `${entry.repository} at ${entry.base_commit.slice(0, 12)} (${entry.tasks})`)
          .join(', ')} (${summary.version}/freshness.json)`,
      );
  } else {
    lines.push(`release ${summary.folder}: ${summary.dryRun ? 'would be pushed' : 'pushed'} as it is`);
  }
  lines.push(
    `  versions   ${release.configs
      .map((config) => `${config.version} (${config.numExamples} rows, ${size(config.downloadSize)})`)
      .join(', ')}; default → ${release.configs.at(-1)?.version ?? '–'}`,
  );
  if (summary.writes.length > 0)
    lines.push(
      `  ${(summary.dryRun ? 'to write' : 'written').padEnd(11)}${summary.writes
        .map((write) => `${write.path} (${size(write.bytes)})`)
        .join(', ')}`,
    );
  if (summary.version !== null) {
    if (release.diff === null) lines.push('  diff       first version');
    else
      lines.push(
        `  diff       against ${release.diff.previous}: ${release.diff.added.length} added, ` +
          `${release.diff.removed.length} removed, ${release.diff.changed.length} changed`,
      );
    for (const [label, ids] of release.diff === null
      ? []
      : ([
          ['+', release.diff.added],
          ['-', release.diff.removed],
          ['~', release.diff.changed],
        ] as const)) {
      for (const id of ids.slice(0, 20)) lines.push(`    ${label} ${id}`);
      if (ids.length > 20) lines.push(`    ${label} … and ${ids.length - 20} more`);
    }
  }
  if (summary.changes !== null) {
    const { changes } = summary;
    const changed = changes.kept.filter((task) => task.change === 'changed-body').length;
    lines.push(
      `  changes    since ${changes.a.version} (the card's section): ${changes.kept.length} kept (${changed} with a ` +
        `changed body), ${changes.added.length} added, ${changes.removed.length} removed; repocod report --diff ` +
        `${changes.a.version} ${changes.b.version} lists why`,
    );
  }
  if (summary.upload !== null) {
    lines.push(
      `  upload     ${summary.upload.files.length} files, ${size(summary.upload.totalBytes)}, one commit ` +
        `"${summary.commitTitle ?? ''}"${summary.dryRun ? ' (not sent)' : ''}`,
    );
    for (const file of summary.upload.files) lines.push(`    ${file.path} (${size(file.bytes)})`);
  }
  if (summary.pushed !== null)
    lines.push(
      `  pushed     ${summary.pushed.created ? 'created the dataset repository; ' : ''}commit ` +
        `${summary.pushed.commitOid.slice(0, 12)}: ${summary.pushed.commitUrl}`,
    );
  return `${lines.join('\n')}\n`;
}
