import { readCurrentVerdicts } from '@repocod/validate';
import { join } from 'node:path';
import type { Catalog } from '@repocod/catalog';
import { checkpointDigest } from '@repocod/catalog';
import { DEFAULT_RELEASE_VERSION, RepocodError, resolveWorkers } from '@repocod/core';
import type { ManifestDifference, ReleaseManifest } from '@repocod/publish';
import {
  compareReleaseManifests,
  RELEASE_MANIFEST_FORMAT,
  readReleaseManifest,
  rowHashes,
  versionFileHashes,
} from '@repocod/publish';
import { fetchStandIn, localExecutor, validateRunsOf } from '@repocod/runner';
import type { PreparedRepository } from '@repocod/runner';
import { parseSelectionSpec } from '@repocod/tasks';
import { JobCounter } from '../jobs/counted-executor.js';
import { extractStep } from '../steps/extract.js';
import { listRepositories } from '../steps/find-repository.js';
import { PreparedRepositories } from '../steps/prepare.js';
import { publishStep } from '../steps/publish.js';
import { selectStep } from '../steps/select.js';
import { tasksStep } from '../steps/tasks.js';
import { toolVersion } from '../records/tool-version.js';
import { validateStep } from '../steps/validate.js';

/** The phases of a rebuild, in order; each one's wall time is reported. */
export const REBUILD_PHASES = [
  'sources',
  'checkpoints',
  'environments',
  'tasks',
  'select',
  'validate',
  'publish',
  'compare',
] as const;
export type RebuildPhase = (typeof REBUILD_PHASES)[number];

export interface RebuildOptions {
  readonly projectRoot: string;
  readonly stateRoot: string;
  readonly manifest?: string;
  /** `NAME=PATH` folders; a repository without one is cloned at its commit, or its stand-in fetched. */
  readonly sources: readonly string[];
  /** The committed release manifest: what to rebuild and compare with (or, with `write`, where to write it). */
  readonly releaseManifest: string;
  /** The committed checkpoints (`<folder>/<repository>`). */
  readonly checkpoints: string;
  /** The release folder the rebuilt version is published into. */
  readonly out: string;
  readonly workers?: number;
  /** Run the jobs the checkpoints do not answer, instead of naming them and stopping. */
  readonly allowRuns: boolean;
  /**
   * The curator's side: release the catalog's selection (`selectionId`, default the latest) as `version`
   * and write its manifest, instead of restoring checkpoints and comparing.
   */
  readonly write?: { readonly version: string; readonly selectionId?: string };
  readonly onEvent?: (event: RebuildEvent) => void;
}

export type RebuildEvent =
  | { readonly kind: 'phase-start'; readonly phase: RebuildPhase }
  /** One repository done within a phase that goes repository by repository. */
  | { readonly kind: 'phase-step'; readonly phase: RebuildPhase; readonly line: string; readonly seconds: number }
  | { readonly kind: 'phase-end'; readonly phase: RebuildPhase; readonly seconds: number; readonly line: string };

export interface RebuildSummary {
  readonly manifest: ReleaseManifest;
  /** Wall seconds per phase. */
  readonly seconds: Readonly<Record<RebuildPhase, number>>;
  /** Runner jobs run per `stage/repository` (none when the checkpoints answer everything). */
  readonly jobsRun: ReadonlyMap<string, number>;
  /** Empty when the rebuilt release is the committed one (always empty with `write`). */
  readonly differences: readonly ManifestDifference[];
  /** The repositories rebuilt, and the source each came from (a folder, a stand-in, or a clone). */
  readonly sources: ReadonlyMap<string, string>;
}

/**
 * `repocod rebuild`: a committed release made again from its committed state, and compared with it.
 * From the release manifest it takes the repositories and their commits, then: each repository's
 * source (--source, else the manifest's stand-in fetched and checked, else a clone at the commit); the
 * checkpoints, each checked against the digest the manifest names, restored into the catalog; the
 * environments; the functions and the tasks (from mining's stored results); the selection with the
 * release's spec; validation; publishing into `out`; and the comparison of selection, verdicts, file
 * and row hashes. Every runner job goes through a JobCounter: a job the checkpoints do not answer stops
 * the rebuild before it runs, naming it, unless `allowRuns`.
 */
export async function rebuildRelease(catalog: Catalog, options: RebuildOptions): Promise<RebuildSummary> {
  const seconds = Object.fromEntries(REBUILD_PHASES.map((phase) => [phase, 0])) as Record<RebuildPhase, number>;
  const phase = async <T>(name: RebuildPhase, work: () => Promise<{ value: T; line: string }>): Promise<T> => {
    options.onEvent?.({ kind: 'phase-start', phase: name });
    const started = performance.now();
    const { value, line } = await work();
    seconds[name] = (performance.now() - started) / 1000;
    options.onEvent?.({ kind: 'phase-end', phase: name, seconds: seconds[name], line });
    return value;
  };
  const committed = options.write === undefined ? readReleaseManifest(options.releaseManifest) : null;
  const repositories =
    committed === null ? await poolRepositories(catalog) : Object.keys(committed.repositories).sort();
  const entries = new Map(
    listRepositories({ projectRoot: options.projectRoot, manifest: options.manifest }).map((entry) => [
      entry.name,
      entry,
    ]),
  );
  const counter = new JobCounter(options.allowRuns);
  const executor = counter.wrap(localExecutor);

  const sources = await phase('sources', async () => {
    const given = new Map(options.sources.map((pair) => [pair.slice(0, pair.indexOf('=')), pair]));
    const origins = new Map<string, string>();
    const list = [...options.sources];
    for (const name of repositories) {
      const entry = entries.get(name);
      if (entry === undefined)
        throw new RepocodError('usage', `${options.releaseManifest}: repository ${name} is in no manifest`);
      if (given.has(name)) origins.set(name, `--source ${given.get(name)?.slice(name.length + 1)}`);
      else if (entry.standIn !== undefined) {
        const folder = await fetchStandIn(name, entry.standIn, options.stateRoot);
        list.push(`${name}=${folder}`);
        origins.set(name, `stand-in ${entry.standIn.sdist} (sha256 checked)`);
      } else origins.set(name, `clone of ${entry.url ?? entry.source} at ${entry.baseCommit?.slice(0, 12)}`);
    }
    const standIns = [...origins.values()].filter((origin) => origin.startsWith('stand-in')).length;
    return {
      value: { list, origins },
      line: `${repositories.length} repositories (${options.sources.length} --source, ${standIns} stand-in(s))`,
    };
  });

  await phase('checkpoints', async () => {
    if (committed === null) return { value: undefined, line: 'not restored: releasing the catalog as it is' };
    let rows = 0;
    for (const name of repositories) {
      const folder = join(options.checkpoints, name);
      const expected = committed.repositories[name]?.checkpoint ?? null;
      const digest = checkpointDigest(folder);
      if (digest !== expected)
        throw new RepocodError(
          'rebuild-differs',
          `${name}: the checkpoint in ${folder} has digest ${digest ?? 'none (no such folder)'}, the release was ` +
            `built from ${expected ?? 'none'}; restore the checkpoints of the release's commit`,
        );
      if (digest === null) continue;
      const counts = await catalog.restoreCheckpoint(name, folder);
      rows += counts.reduce((sum, count) => sum + count.rows, 0);
    }
    return { value: undefined, line: `${rows} row(s) restored` };
  });

  const checkouts = new PreparedRepositories({
    projectRoot: options.projectRoot,
    stateRoot: options.stateRoot,
    manifest: options.manifest,
    sources: sources.list,
    workers: resolveWorkers(options.workers),
  });
  const prepared = await phase('environments', async () => {
    const ready = new Map<string, PreparedRepository>();
    for (const name of repositories) {
      const started = performance.now();
      const repository = await checkouts.get(name);
      const extracted = await extractStep(catalog, { root: repository.checkout.path, repository: name });
      ready.set(name, repository);
      const line = `${name}: environment ${repository.environment.key.slice(0, 12)}, ${extracted.functions} functions`;
      options.onEvent?.({ kind: 'phase-step', phase: 'environments', line, seconds: secondsSince(started) });
    }
    return { value: ready, line: `${ready.size} environment(s) ready, functions extracted` };
  });

  await phase('tasks', async () => {
    counter.stage = 'tasks';
    let tasks = 0;
    for (const name of repositories) {
      const started = performance.now();
      const summary = await tasksStep(catalog, await checkouts.get(name), {
        projectRoot: options.projectRoot,
        executor,
        allowNoTasks: true,
      });
      tasks += summary.tasks.length;
      const line = `${name}: ${summary.tasks.length} task(s)`;
      options.onEvent?.({ kind: 'phase-step', phase: 'tasks', line, seconds: secondsSince(started) });
    }
    return { value: undefined, line: `${tasks} task(s)` };
  });

  const selectionId = await phase('select', async () => {
    // Writing, the catalog's selection must be what its own spec selects again, or no rebuild could re-derive it.
    const stored = options.write === undefined ? null : await catalog.selection(options.write.selectionId);
    if (options.write !== undefined && stored === null)
      throw new RepocodError('usage', `no selection ${options.write.selectionId ?? ''} in the catalog to release`);
    const specText = stored === null ? JSON.stringify(committed?.spec) : stored.spec;
    const source = stored === null ? `${options.releaseManifest} (spec)` : `selection ${stored.selectionId} (spec)`;
    const selected = await selectStep(catalog, parseSelectionSpec(specText, source), source);
    if (stored !== null && selected.selectionId !== stored.selectionId)
      throw new RepocodError(
        'rebuild-differs',
        `selection ${stored.selectionId} is not what its spec selects now (${selected.selectionId}): validate ` +
          'the new selection and select again until it stays the same, then release that',
      );
    return { value: selected.selectionId, line: `selection ${selected.selectionId}, ${selected.picks.length} pick(s)` };
  });

  const validateRuns = new Map<string, number>();
  await phase('validate', async () => {
    counter.stage = 'validate';
    const summary = await validateStep(catalog, checkouts, {
      projectRoot: options.projectRoot,
      selectionId,
      executor,
    });
    for (const repository of summary.repositories) validateRuns.set(repository.repository, repository.repeat);
    const failed = summary.validations.filter((row) => row.status !== 'passed').length;
    return { value: undefined, line: `${summary.validations.length} validated, ${failed} not passed` };
  });

  const version = options.write?.version ?? committed?.version ?? DEFAULT_RELEASE_VERSION;
  await phase('publish', async () => {
    const published = await publishStep(catalog, {
      version,
      out: options.out,
      selectionId,
      stateRoot: options.stateRoot,
    });
    return { value: published, line: `${options.out} version ${version}` };
  });

  const differences = await phase('compare', async () => {
    const rebuilt = await releaseManifestOf(catalog, {
      folder: options.out,
      version,
      selectionId,
      repositories,
      prepared,
      validateRuns,
      checkpoints: options.checkpoints,
      tool: toolVersion(options.projectRoot),
    });
    if (committed === null) return { value: { rebuilt, differences: [] }, line: 'manifest written' };
    const found = compareReleaseManifests(committed, rebuilt);
    return {
      value: { rebuilt, differences: found },
      line: found.length === 0 ? 'same release' : `${found.length} difference(s)`,
    };
  });
  return {
    manifest: differences.rebuilt,
    seconds,
    jobsRun: counter.counts,
    differences: differences.differences,
    sources: sources.origins,
  };
}

function secondsSince(started: number): number {
  return (performance.now() - started) / 1000;
}

/** The repositories with tasks in the catalog: the pool a selection is made from. */
async function poolRepositories(catalog: Catalog): Promise<string[]> {
  const names: string[] = [];
  for (const { name } of await catalog.repositories()) if ((await catalog.tasks(name)).length > 0) names.push(name);
  return names.sort();
}

interface ManifestInputs {
  readonly folder: string;
  readonly version: string;
  readonly selectionId: string;
  readonly repositories: readonly string[];
  readonly prepared: ReadonlyMap<string, PreparedRepository>;
  readonly validateRuns: ReadonlyMap<string, number>;
  readonly checkpoints: string;
  readonly tool: string;
}

/** The manifest of a published version: what rebuildRelease compares (see ReleaseManifest). */
async function releaseManifestOf(catalog: Catalog, inputs: ManifestInputs): Promise<ReleaseManifest> {
  const selection = await catalog.selection(inputs.selectionId);
  if (selection === null) throw new RepocodError('usage', `no selection ${inputs.selectionId} in the catalog`);
  const rows = rowHashes(inputs.folder, inputs.version);
  const tasks = [];
  for (const name of inputs.repositories) tasks.push(...(await catalog.tasks(name)));
  const byId = new Map(tasks.map((task) => [task.instanceId, task]));
  const verdicts = await readCurrentVerdicts(catalog);
  const judged = [...verdicts]
    .filter(([id, status]) => byId.has(id) && status !== 'infra-error')
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return {
    format: RELEASE_MANIFEST_FORMAT,
    version: inputs.version,
    selection: selection.selectionId,
    spec: JSON.parse(selection.spec) as unknown,
    tool: inputs.tool,
    repositories: Object.fromEntries(
      inputs.repositories.map((name) => {
        const prepared = inputs.prepared.get(name);
        return [
          name,
          {
            base_commit: prepared?.checkout.baseCommit ?? '',
            checkpoint: checkpointDigest(join(inputs.checkpoints, name)),
            validate_runs: inputs.validateRuns.get(name) ?? validateRunsOf(prepared?.entry ?? {}, undefined),
          },
        ];
      }),
    ),
    files: versionFileHashes(inputs.folder, inputs.version),
    tasks: [...rows]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([instanceId, sha256]) => ({
        instance_id: instanceId,
        repository: byId.get(instanceId)?.repository ?? '',
        level: selection.picks.find((pick) => pick.instanceId === instanceId)?.level ?? '',
        row_sha256: sha256,
      })),
    verdicts: Object.fromEntries(judged) as Record<string, 'passed' | 'failed'>,
  };
}
