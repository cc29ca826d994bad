import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { RepocodError, resolveWorkers } from '@repocod/core';
import type { RebuildEvent, RebuildSummary } from '@repocod/pipeline';
import { formatReleaseManifest, openCatalog, REBUILD_PHASES, rebuildRelease } from '@repocod/pipeline';
import { checkpointFolder } from './checkpoint-command.js';
import type { CommandIO } from './io.js';
import type { ParsedArgs } from './parse-args.js';
import { listOption, optionalWholeNumber, stringOption } from './parse-args.js';
import { PROJECT_ROOT, stateRoot } from './project-root.js';

/** The committed Lite's release manifest, what `repocod rebuild lite` reproduces. */
export const LITE_RELEASE_MANIFEST = 'datasets/repocod/rebuilt/lite-release.json';
/** The catalog a rebuild starts from: its own, so that it shows what the committed state alone gives. */
export const REBUILD_CATALOG = '.repocod/rebuild.duckdb';

export const REBUILD_USAGE = `usage: repocod rebuild lite [--source NAME=PATH]... [--out DIR] [--db FILE]
                            [--checkpoints DIR] [--workers N] [--allow-runs] [--manifest FILE]
       repocod rebuild --release-manifest FILE [same options]
       repocod rebuild --write-manifest FILE --version V [--selection ID] [--out DIR] [--db FILE]
                       [--source NAME=PATH]...

Makes a committed release again from the committed state, and says whether it is the same release.
lite is ${LITE_RELEASE_MANIFEST}, the rebuilt REPOCOD-Lite (pnpm rebuild:lite). From the release
manifest it takes the repositories and their commits, then, each phase timed: sources (--source
NAME=PATH, else the manifest's stand_in fetched and its sha256 checked, else a clone at the commit);
the checkpoints (--checkpoints DIR, default datasets/repocod/checkpoints), each checked against the
digest the release manifest names, restored into the catalog (default ${REBUILD_CATALOG}); the
environments and the functions; the tasks, from mining's stored results; the selection, with the
release's spec; validation; publishing into --out (default out/rebuild); and the comparison of the
selection id, every verdict, each file's and each task row's sha256 with the release manifest. Any
difference is named, with the first differing task (exit code 1). No test runs that the checkpoints
answer: a job they do not answer stops the rebuild before it runs, named with its stage and
repository, unless --allow-runs. --write-manifest is the curator's side: it releases the catalog's
selection (default the latest, which must be what its spec selects again) as --version V through the
same phases (nothing restored) and writes the release manifest to FILE.`;

export async function rebuildCommand(args: ParsedArgs, io: CommandIO): Promise<number> {
  const target = args.positionals[0];
  const writeTo = stringOption(args, 'write-manifest');
  const given = stringOption(args, 'release-manifest');
  if (args.positionals.length > 1 || (target !== undefined && target !== 'lite'))
    throw new RepocodError('usage', `repocod rebuild takes lite or --release-manifest FILE\n\n${REBUILD_USAGE}`);
  const choices = [target !== undefined, given !== undefined, writeTo !== undefined].filter(Boolean).length;
  if (choices !== 1)
    throw new RepocodError(
      'usage',
      `give one of lite, --release-manifest FILE or --write-manifest FILE\n\n${REBUILD_USAGE}`,
    );
  const version = stringOption(args, 'version');
  if (writeTo !== undefined && version === undefined)
    throw new RepocodError('usage', '--write-manifest needs --version V: the version to release');
  if (writeTo === undefined && (version !== undefined || stringOption(args, 'selection') !== undefined))
    throw new RepocodError(
      'usage',
      '--version and --selection are for --write-manifest: a rebuild takes both from the release manifest',
    );
  const manifestFile = absolute(writeTo ?? given ?? LITE_RELEASE_MANIFEST, PROJECT_ROOT);
  const dbPath = stringOption(args, 'db') ?? join(PROJECT_ROOT, REBUILD_CATALOG);
  const out = absolute(stringOption(args, 'out') ?? 'out/rebuild', process.cwd());
  const catalog = await openCatalog(dbPath);
  const started = performance.now();
  try {
    const summary = await rebuildRelease(catalog, {
      projectRoot: PROJECT_ROOT,
      stateRoot: stateRoot(),
      manifest: stringOption(args, 'manifest'),
      sources: listOption(args, 'source'),
      releaseManifest: manifestFile,
      checkpoints: checkpointFolder(stringOption(args, 'checkpoints')),
      out,
      workers: resolveWorkers(optionalWholeNumber(args, 'workers')),
      allowRuns: args.flags.get('allow-runs') === true,
      write:
        writeTo === undefined || version === undefined
          ? undefined
          : { version, selectionId: stringOption(args, 'selection') },
      onEvent: (event) => io.out(formatEvent(event)),
    });
    if (writeTo !== undefined) {
      mkdirSync(dirname(manifestFile), { recursive: true });
      writeFileSync(manifestFile, formatReleaseManifest(summary.manifest));
    }
    io.out(formatSummary(summary, (performance.now() - started) / 1000, writeTo === undefined ? null : manifestFile));
    return summary.differences.length === 0 ? 0 : 1;
  } finally {
    await catalog.close();
  }
}

function absolute(path: string, base: string): string {
  return isAbsolute(path) ? path : resolve(base, path);
}

function formatEvent(event: RebuildEvent): string {
  if (event.kind === 'phase-start') return `[${event.phase}] …\n`;
  if (event.kind === 'phase-step') return `[${event.phase}]   ${event.line} (${event.seconds.toFixed(1)} s)\n`;
  return `[${event.phase}] ${event.line} (${event.seconds.toFixed(1)} s)\n`;
}

/** The phases' times, the jobs run, and "same release" or each difference. */
export function formatSummary(summary: RebuildSummary, seconds: number, written: string | null): string {
  const phases = REBUILD_PHASES.map((phase) => `${phase} ${summary.seconds[phase].toFixed(1)} s`).join(', ');
  const jobs = [...summary.jobsRun].filter(([, count]) => count > 0);
  const total = jobs.reduce((sum, [, count]) => sum + count, 0);
  const manifest = summary.manifest;
  const lines = [
    `rebuild: ${manifest.tasks.length} task(s), version ${manifest.version}, selection ${manifest.selection} in ` +
      `${seconds.toFixed(1)} s`,
    `  phases       ${phases}`,
    `  jobs run     ${total}${
      jobs.length === 0
        ? ' (the checkpoints answered every job)'
        : ` (${jobs.map(([key, count]) => `${key} ${count}`).join(', ')})`
    }`,
    ...[...summary.sources].map(([name, origin]) => `  ${name.padEnd(15)}${origin}`),
  ];
  if (written !== null) lines.push(`  manifest     written to ${relative(process.cwd(), written) || written}`);
  else if (summary.differences.length === 0)
    lines.push(
      `  same release: selection ${manifest.selection}, ${Object.keys(manifest.verdicts).length} verdicts, ` +
        `${Object.keys(manifest.files).length} file and ${manifest.tasks.length} row sha256s as committed`,
    );
  else
    lines.push(
      `  NOT the same release (${summary.differences.length} difference(s)):`,
      ...summary.differences.map((difference) => `    ${difference.part}: ${difference.detail}`),
    );
  return `${lines.join('\n')}\n`;
}
