import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { RepocodError } from '@repocod/core';
import { prepareStep } from '@repocod/pipeline';
import type { ManifestEntry } from '@repocod/runner';
import { checkoutAtResolver, collectSuite, entryYaml, loadManifest, proposeEntry } from '@repocod/runner';
import type { CommandIO } from './io.js';
import type { ParsedArgs } from './parse-args.js';
import { stringOption } from './parse-args.js';
import { PROJECT_ROOT, stateRoot } from './project-root.js';

/** What `manifest add` does, as `repocod manifest --help` and a usage error of `add` say it. */
export const MANIFEST_ADD_DESCRIPTION = `add writes a whole entry for a repository the manifest does not have
into FILE (made if it does not exist): its origin (the local clone, or the url, cloned under .repocod/repos),
repo (owner/name, from the url or the clone's origin remote, else --owner), base_commit (--at REF: a sha, tag,
branch, HEAD or a day; default HEAD), python (the lowest installed minor requires-python allows, 3.10 or newer
for the runner's harness), the install recipe \`manifest derive\` finds (a test dependency group, else a test
extra, else a test requirements file), test_roots (pytest's testpaths, else tests/ or test/), with how each
was decided as comments. Then it checks the entry: builds its environment (which stops at a recipe step that
asks for a missing extra, or a module a conftest.py imports and the environment lacks) and collects the
whole suite once, and prints the tests collected and the modules that did not collect, by reason.
--no-check writes the entry only.`;

export const MANIFEST_ADD_USAGE = `usage: repocod manifest add <repository> (--source PATH | --url URL) --manifest FILE
                             [--at REF] [--owner OWNER] [--package-root DIR] [--no-check]

${MANIFEST_ADD_DESCRIPTION}`;

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

export async function manifestAddCommand(args: ParsedArgs, io: CommandIO): Promise<number> {
  const [, name, extra] = args.positionals;
  if (name === undefined || extra !== undefined) throw new RepocodError('usage', MANIFEST_ADD_USAGE);
  if (!NAME.test(name)) {
    throw new RepocodError('usage', `repocod manifest add ${name}: a name holds letters, digits, ".", "_" and "-"`);
  }
  const file = stringOption(args, 'manifest');
  const given = sourceOrUrl(args, name);
  if (file === undefined) {
    throw new RepocodError('usage', `repocod manifest add ${name} needs --manifest FILE\n\n${MANIFEST_ADD_USAGE}`);
  }
  const before = existsSync(file) ? readFileSync(file, 'utf8') : null;
  if (before !== null && loadManifest(file).repositories.some((entry) => entry.name === name)) {
    throw new RepocodError('usage', `${file} already has an entry named "${name}"; choose another name or edit it`);
  }
  const root = stateRoot();
  const ref = stringOption(args, 'at') ?? 'HEAD';
  const origin = { name, url: given.url, source: given.source } as ManifestEntry;
  const resolved = await checkoutAtResolver({ reposRoot: join(root, 'repos'), projectRoot: PROJECT_ROOT })(
    origin,
    ref,
    `--at ${ref}`,
  );
  const proposal = await proposeEntry({
    name,
    gitDir: given.source ?? join(root, 'repos', name),
    commit: resolved.commit,
    url: given.url,
    source: given.source,
    packageRoot: stringOption(args, 'package-root') ?? '.',
    ...(stringOption(args, 'owner') === undefined ? {} : { owner: stringOption(args, 'owner') as string }),
  });
  const yaml = entryYaml(proposal);
  writeEntry(file, before, yaml, name);
  io.out(`${file}: entry ${name} written (${ref} is ${resolved.commit.slice(0, 12)}, ${resolved.describedAs})\n`);
  io.out(`${yaml}\n`);
  if (args.flags.get('no-check') === true) return 0;
  return checkEntry(name, file, io);
}

/** `--source PATH` (or NAME=PATH, as elsewhere) or `--url URL`, exactly one. */
function sourceOrUrl(args: ParsedArgs, name: string): { source: string | null; url: string | null } {
  const source = stringOption(args, 'source');
  const url = stringOption(args, 'url');
  if ((source === undefined) === (url === undefined)) {
    throw new RepocodError('usage', `repocod manifest add ${name} takes one of --source PATH and --url URL`);
  }
  if (url !== undefined) return { source: null, url };
  const path = (source as string).startsWith(`${name}=`) ? (source as string).slice(name.length + 1) : source;
  return { source: resolve(path as string), url: null };
}

/**
 * Appends the entry under the file's `repositories:` and reads the file back with the manifest's own checks; a
 * file that does not read back (the list is not the file's last key, say) gets its old text again.
 */
function writeEntry(file: string, before: string | null, yaml: string, name: string): void {
  const text =
    before === null
      ? `# Repositories added with repocod manifest add (fields: datasets/repocod/manifest.yaml's header).\n` +
        `repositories:\n${yaml}`
      : `${before.replace(/\n*$/, '\n')}\n${yaml}`;
  writeFileSync(file, text);
  try {
    if (!loadManifest(file).repositories.some((entry) => entry.name === name)) {
      throw new Error(`the entry ${name} is not under its repositories: after the append`);
    }
  } catch (error) {
    if (before === null) writeFileSync(file, '');
    else writeFileSync(file, before);
    const why = error instanceof Error ? error.message : String(error);
    throw new RepocodError(
      'config-invalid',
      `${file}: the new entry does not read back (${why}); the file is as it was. Put \`repositories:\` last in ` +
        `it, or add this entry by hand:\n${yaml}`,
    );
  }
}

async function checkEntry(name: string, file: string, io: CommandIO): Promise<number> {
  const started = performance.now();
  io.out(`checking ${name}: checkout, environment and one collection of the suite …\n`);
  let prepared: Awaited<ReturnType<typeof prepareStep>>;
  try {
    prepared = await prepareStep(name, {
      projectRoot: PROJECT_ROOT,
      stateRoot: stateRoot(),
      manifest: file,
      workers: 1,
      onLog: io.interactive ? (line) => io.err(`  ${line}\n`) : undefined,
    });
  } catch (error) {
    if (error instanceof RepocodError) {
      const retry = `repocod env ${name} --manifest ${file}`;
      io.err(`${error.message}\n\nThe entry is in ${file}: fix it there and run \`${retry}\`\n`);
      return 1;
    }
    throw error;
  }
  const collection = await collectSuite(prepared);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  if (collection.startError !== null) {
    io.out(
      [
        `${name}: environment ${prepared.environment.path} (${prepared.environment.packages.length} packages)`,
        `  pytest did not start the suite under ${prepared.entry.testRoots.join(', ')}: ${collection.startError}`,
        `  The entry is in ${file}: add what pytest needs to its install (or its pytest_args) and run`,
        `  \`repocod env ${name} --manifest ${file}\`, then \`repocod run ${name} --manifest ${file}\`.`,
        '',
      ].join('\n'),
    );
    return 1;
  }
  const byReason = new Map<string, string[]>();
  for (const error of collection.errors)
    byReason.set(error.reason, [...(byReason.get(error.reason) ?? []), error.module]);
  io.out(
    [
      `${name}: environment ${prepared.environment.path} (${prepared.environment.packages.length} packages)`,
      `  ${collection.collected} tests collected under ${prepared.entry.testRoots.join(', ')} ` +
        `(${collection.seconds.toFixed(1)} s to collect, ${seconds} s in all)`,
      collection.errors.length === 0
        ? '  every module collected'
        : `  ${collection.errors.length} module(s) did not collect:`,
      ...[...byReason].map(
        ([reason, modules]) =>
          `    ${reason}: ${modules.slice(0, 5).join(', ')}` +
          (modules.length > 5 ? ` and ${modules.length - 5} more` : ''),
      ),
      ...(collection.collected === 0 && collection.errors.length === 0 ? [collection.log.slice(-2000)] : []),
      '',
    ].join('\n'),
  );
  return collection.collected === 0 ? 1 : 0;
}
