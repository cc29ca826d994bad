import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RepocodError } from '@repocod/core';
import type { ReferenceResolution, ResolvedReferenceRow } from '@repocod/pipeline';
import {
  addReference,
  DEFAULT_CATALOG_PATH,
  DEFAULT_RECORD_FOLDER,
  formatReferenceProblem,
  hubToken,
  listRepositories,
  openCatalog,
  readReferenceSource,
  resolveReference,
} from '@repocod/pipeline';
import type { CommandIO } from './io.js';
import type { ParsedArgs } from './parse-args.js';
import { stringOption } from './parse-args.js';
import { PROJECT_ROOT, stateRoot } from './project-root.js';
import { repositoryOptions } from './repository-options.js';

export const REFERENCE_USAGE = `usage: repocod reference add <name> --from SOURCE [--config NAME] [--hub-url URL]
                         [--manifest FILE] [--records DIR] [--db FILE]
       repocod reference show <name> [--unresolved] [--json-file FILE] [--manifest FILE] [--records DIR] [--db FILE]
       repocod reference list [--db FILE]
       repocod reference remove <name> [--db FILE]

A published task list taken as a reference, to rebuild and audit (docs/reference.md). SOURCE is a Hub
dataset (hub:ORG/NAME or hub:ORG/NAME@REVISION; --config picks a config, default the card's default;
token from HF_TOKEN for a private one), a release folder (--config a version, default data/), or a
.parquet, .jsonl or .json file. It reads REPOCOD's forms (lt-asset/REPOCOD's rows: repository, repo_id,
target_module_path, prompt, full_function, function_name, relevant_test_path; its evaluator's objects
keyed repository → repo_id; function names per repository as in its flaky_tests.json) and the seed's
(instance_id, repo, base_commit, pre_patches, gold_patches, evaluation.FAIL_TO_PASS: REPOCOD_Lite_Unified
and our own releases). add stores every record (a bad one with its problem, each named with its file,
line or row and field) and resolves the rows; show resolves every row to one function of the catalog's
extraction at the manifest's commit, by the pre patch's removed range (seed) or by function_name within
target_module_path, confirmed by full_function or prompt (exactly, or once whitespace is normalised), and
says why a row does not resolve (repository not in the manifest, not extracted, file absent, no such
function, several match, text differs: a short diff). Whether mining found relevant tests for a function
comes from the catalog and the committed records (--records, default ${DEFAULT_RECORD_FOLDER}).`;

export async function referenceCommand(args: ParsedArgs, io: CommandIO): Promise<number> {
  const [action, name, extra] = args.positionals;
  const needsName = action === 'add' || action === 'show' || action === 'remove';
  if (
    action === undefined ||
    !['add', 'show', 'list', 'remove'].includes(action) ||
    (needsName ? name === undefined || extra !== undefined : name !== undefined)
  )
    throw new RepocodError('usage', REFERENCE_USAGE);
  const catalog = await openCatalog(stringOption(args, 'db') ?? DEFAULT_CATALOG_PATH);
  try {
    if (action === 'list') {
      const references = await catalog.references();
      if (references.length === 0) io.out('no reference in the catalog (repocod reference add NAME --from SOURCE)\n');
      for (const reference of references)
        io.out(
          `${reference.name}  ${reference.form ?? 'no rows'}, ${reference.rows} row(s)${
            reference.problems > 0 ? ` (${reference.problems} bad)` : ''
          }  from ${reference.source}${reference.config === null ? '' : ` config ${reference.config}`}  added ` +
            `${reference.addedAt.toISOString()}\n`,
        );
      return 0;
    }
    const reference = name as string;
    if (action === 'remove') {
      if (!(await catalog.removeReference(reference)))
        throw new RepocodError('usage', `no reference ${reference} in the catalog (repocod reference list)`);
      io.out(`removed reference ${reference}\n`);
      return 0;
    }
    const repositories = listRepositories(repositoryOptions(args));
    const recordsFolder = join(PROJECT_ROOT, stringOption(args, 'records') ?? DEFAULT_RECORD_FOLDER);
    if (action === 'add') {
      const from = stringOption(args, 'from');
      if (from === undefined)
        throw new RepocodError('usage', `reference add needs --from SOURCE\n\n${REFERENCE_USAGE}`);
      const hubUrl = stringOption(args, 'hub-url');
      const token =
        process.env.HF_TOKEN === undefined && process.env.HUGGING_FACE_HUB_TOKEN === undefined
          ? undefined
          : hubToken(process.env);
      const read = await readReferenceSource(from, {
        config: stringOption(args, 'config') ?? null,
        downloads: join(stateRoot(), 'references'),
        ...(hubUrl === undefined ? {} : { hubUrl }),
        ...(token === undefined ? {} : { accessToken: token }),
      });
      const added = await addReference(catalog, {
        name: reference,
        source: from,
        revision: read.revision,
        config: read.config,
        records: read.records,
      });
      io.out(
        `reference ${reference}: ${added.rows.length} row(s) of the ${added.reference.form} form from ${from}${
          read.config === null ? '' : ` (config ${read.config})`
        }; ${added.problems.length} bad record(s)${added.problems.length > 0 ? ', kept with their problem:' : ''}\n`,
      );
      for (const problem of added.problems) io.out(`  ${formatReferenceProblem(problem)}\n`);
      if (added.replaced !== null)
        io.out(
          `  replaced the reference of that name (from ${added.replaced.source}, added ` +
            `${added.replaced.addedAt.toISOString()}${
              added.replaced.contentHash === added.reference.contentHash ? ', the same rows' : ', other rows'
            })\n`,
        );
      const resolution = await resolveReference(catalog, reference, { repositories, recordsFolder });
      io.out(`${summaryLines(resolution).join('\n')}\n  every row: repocod reference show ${reference}\n`);
      return 0;
    }
    const resolution = await resolveReference(catalog, reference, { repositories, recordsFolder });
    const jsonFile = stringOption(args, 'json-file');
    if (jsonFile !== undefined) writeFileSync(jsonFile, `${JSON.stringify(resolutionJson(resolution), null, 2)}\n`);
    const onlyUnresolved = args.flags.get('unresolved') === true;
    io.out(`reference ${resolution.name} (${resolution.form} form, from ${resolution.source})\n`);
    io.out(`${summaryLines(resolution).join('\n')}\n`);
    for (const problem of resolution.problems) io.out(`  bad record: ${formatReferenceProblem(problem)}\n`);
    for (const row of resolution.rows)
      if (!onlyUnresolved || row.resolution.status === 'unresolved') io.out(`${rowLines(row).join('\n')}\n`);
    return 0;
  } finally {
    await catalog.close();
  }
}

/** The counts a reader looks for first: resolved of all, why the rest did not, per repository. */
export function summaryLines(resolution: ReferenceResolution): string[] {
  const { rows } = resolution;
  const resolved = rows.filter((row) => row.resolution.status === 'resolved');
  const reasons = count(rows.flatMap((row) => (row.resolution.status === 'unresolved' ? [row.resolution.reason] : [])));
  const texts = count(resolved.map((row) => (row.resolution.status === 'resolved' ? row.resolution.text : '')));
  const outside = resolved.filter((row) => row.resolution.status === 'resolved' && row.resolution.outsideCandidates);
  const chosen = resolved.filter(
    (row) =>
      row.resolution.status === 'resolved' && row.resolution.nameMatches > 1 && row.resolution.text === 'not-given',
  );
  const repositories = [...new Set(rows.map((row) => row.repository ?? row.row.repository))].sort();
  const perRepository = repositories.map((repository) => {
    const of = rows.filter((row) => (row.repository ?? row.row.repository) === repository);
    return `${repository} ${of.filter((row) => row.resolution.status === 'resolved').length}/${of.length}`;
  });
  return [
    `  resolved ${resolved.length} of ${rows.length} row(s)${
      reasons.length > 0 ? `; unresolved: ${reasons.map(([reason, n]) => `${reason} ${n}`).join(', ')}` : ''
    }${resolution.problems.length > 0 ? `; ${resolution.problems.length} bad record(s)` : ''}`,
    `  by repository (resolved/rows): ${perRepository.join(', ')}`,
    `  text agreement of the resolved: ${texts.map(([text, n]) => `${text} ${n}`).join(', ') || 'none'}; outside our ` +
      `candidates (docstring rule): ${outside.length}; chosen among several of their name without a text: ` +
      `${chosen.length}`,
  ];
}

function rowLines(resolved: ResolvedReferenceRow): string[] {
  const { row, resolution } = resolved;
  const id = row.repoId === null ? '' : ` [${row.repoId}]`;
  const named = row.functionName ?? row.instanceId ?? '?';
  const head = `#${row.index} ${resolved.repository ?? row.repository}${id} ${named}`;
  const notes = resolution.notes.map((note) => `    note: ${note}`);
  if (resolution.status === 'resolved') {
    const text = resolution.textField === null ? '' : `, ${resolution.textField} ${resolution.text}`;
    const how = `${resolution.by}${text}`;
    const outside = resolution.outsideCandidates ? ', outside our candidates' : '';
    return [`${head} → ${resolution.function.file}::${resolution.function.qualname} (${how}${outside})`, ...notes];
  }
  const matches = resolution.matches.slice(0, 8).map((fn) => `${fn.file}::${fn.qualname}`);
  const more = resolution.matches.length > 8 ? `, … (${resolution.matches.length})` : '';
  return [
    `${head} ✗ ${resolution.reason}: ${resolution.message}`,
    ...(matches.length > 0 ? [`    matches: ${matches.join(', ')}${more}`] : []),
    ...(resolution.difference === null ? [] : resolution.difference.split('\n').map((line) => `    ${line}`)),
    ...notes,
  ];
}

function resolutionJson(resolution: ReferenceResolution): object {
  return {
    name: resolution.name,
    source: resolution.source,
    form: resolution.form,
    problems: resolution.problems,
    rows: resolution.rows.map(({ row, repository, resolution: result }) => ({
      index: row.index,
      where: row.where,
      repository: row.repository,
      manifest_repository: repository,
      repo_id: row.repoId,
      function_name: row.functionName,
      instance_id: row.instanceId,
      ...result,
    })),
  };
}

function count(values: readonly string[]): [string, number][] {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
}
