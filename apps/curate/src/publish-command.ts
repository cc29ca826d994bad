import { join } from 'node:path';
import { RepocodError } from '@repocod/core';
import type { PublishSummary } from '@repocod/pipeline';
import { DEFAULT_CATALOG_PATH, DEFAULT_RELEASE_FOLDER, openCatalog, publishStage } from '@repocod/pipeline';
import type { CommandIO } from './io.js';
import type { ParsedArgs } from './parse-args.js';
import { stringOption } from './parse-args.js';
import { PROJECT_ROOT } from './project-root.js';

export const PUBLISH_USAGE = `usage: repocod publish --version V [--out DIR] [--selection ID] [--db FILE]

Writes the tasks of a selection (default: the latest) as version V of a release folder (default
out/release) in the Hub's layout: V/test-00000-of-00001.parquet, data/test-00000-of-00001.parquet
(the default config, this version) and README.md, a dataset card whose header lists every version.
Earlier versions in the folder are kept as they are; a version is never rewritten. Prints the
difference from the previous version.`;

export async function publishCommand(args: ParsedArgs, io: CommandIO): Promise<number> {
  if (args.positionals.length > 0) throw new RepocodError('usage', PUBLISH_USAGE);
  const version = stringOption(args, 'version');
  if (version === undefined) throw new RepocodError('usage', `give --version\n\n${PUBLISH_USAGE}`);
  const catalog = await openCatalog(stringOption(args, 'db') ?? DEFAULT_CATALOG_PATH);
  try {
    const summary = await publishStage(catalog, { version, out: stringOption(args, 'out') ?? join(PROJECT_ROOT, DEFAULT_RELEASE_FOLDER), selectionId: stringOption(args, 'selection') });
    io.out(formatPublish(summary));
    return 0;
  } finally {
    await catalog.close();
  }
}

export function formatPublish(summary: PublishSummary): string {
  const lines = [
    `release ${summary.folder}: version ${summary.version}, ${summary.tasks} tasks from selection ${summary.selectionId}`,
    `  versions   ${summary.configs.map((config) => `${config.version} (${config.numExamples} rows, ${config.downloadSize} bytes)`).join(', ')}; default → ${summary.version}`,
    `  files      ${summary.files.join(', ')}`,
  ];
  if (summary.diff === null) lines.push('  diff       first version');
  else lines.push(`  diff       against ${summary.diff.previous}: ${summary.diff.added.length} added, ${summary.diff.removed.length} removed, ${summary.diff.changed.length} changed`);
  for (const [label, ids] of summary.diff === null ? [] : ([['+', summary.diff.added], ['-', summary.diff.removed], ['~', summary.diff.changed]] as const)) {
    for (const id of ids.slice(0, 20)) lines.push(`    ${label} ${id}`);
  }
  return `${lines.join('\n')}\n`;
}
