import type { AbsentFile, HarnessPlugin, ManifestEntry, PreparedRepository, RunJob } from '@repocod/runner';
import { catalogName, jobHash } from '@repocod/runner';
import { WireFields } from './wire-fields.js';

/** Bumped when a job message changes shape: a worker of another version refuses it by name. */
export const JOB_FORMAT = 'repocod-job/2';

/**
 * What the coordinator puts on the queue: the job, the manifest entry of its repository (so that a
 * worker prepares the checkout and environment on demand, with no manifest of its own), and what the
 * coordinator's own preparation gave, so a worker whose checkout or environment differs says so
 * instead of returning results that would be stored under the wrong key.
 */
export interface JobMessage {
  readonly format: typeof JOB_FORMAT;
  readonly entry: ManifestEntry;
  readonly job: RunJob;
  readonly jobHash: string;
  readonly baseCommit: string;
  readonly environmentKey: string;
}

export function jobMessage(job: RunJob, repository: PreparedRepository): JobMessage {
  return {
    format: JOB_FORMAT,
    entry: repository.entry,
    job,
    jobHash: jobHash(job, repository),
    baseCommit: repository.checkout.baseCommit,
    environmentKey: repository.environment.key,
  };
}

/** `the whole suite` or `3 tests`, for messages and logs. */
export function describeTests(job: RunJob): string {
  return job.tests === 'all' ? 'the whole suite' : `${job.tests.length} test${job.tests.length === 1 ? '' : 's'}`;
}

const PLUGINS: readonly HarnessPlugin[] = ['repocod_coverage', 'repocod_mutate', 'repocod_collect'];

/** A queue job's data as a JobMessage; anything else is a `job-malformed` error naming the field. */
export function readJobMessage(data: unknown, queueJobId: string): JobMessage {
  const fields = new WireFields(`job ${queueJobId}`, data);
  fields.exactly(
    'format',
    JOB_FORMAT,
    'another format was made by another repocod version: run the same version on the coordinator and the workers',
  );
  const entry = readEntry(fields.object('entry'));
  const jobFields = fields.object('job');
  // Jobs name their repository by its catalog name (an era's own, catalog-name.ts); an evaluation's, by the release's
  // name of it, the manifest name.
  const repository = jobFields.string('repository');
  if (repository !== catalogName(entry))
    jobFields.exactly('repository', entry.name, "the job's repository is the entry's catalog name or its name");
  return {
    format: JOB_FORMAT,
    entry,
    job: readJob(jobFields),
    jobHash: fields.string('jobHash'),
    baseCommit: fields.string('baseCommit'),
    environmentKey: fields.string('environmentKey'),
  };
}

function readEntry(fields: WireFields): ManifestEntry {
  const common = {
    name: fields.string('name'),
    python: fields.string('python'),
    packageRoot: fields.string('packageRoot'),
    install: fields.installSteps('install'),
    testRoots: fields.strings('testRoots'),
    pytestArgs: fields.strings('pytestArgs'),
    deselect: fields.list('deselect').map((test) => ({ id: test.string('id'), reason: test.string('reason') })),
    env: fields.stringMap('env'),
    timeoutSeconds: fields.number('timeoutSeconds'),
    ...optional('excludeNewer', fields.optionalString('excludeNewer')),
    ...optional('buildInPlace', fields.optionalString('buildInPlace')),
    ...optionalList('blobsFrom', fields.optionalStrings('blobsFrom')),
    ...optionalList('importCheck', fields.optionalStrings('importCheck')),
    ...absentFilesOf(fields),
    ...eraOfEntry(fields.optionalStringOrNull('manifestCommit')),
  };
  const url = fields.stringOrNull('url');
  if (url !== null) return { ...common, url, source: null, baseCommit: fields.string('baseCommit') };
  const local = {
    ...common,
    url: null,
    source: fields.string('source'),
    baseCommit: fields.stringOrNull('baseCommit'),
  };
  const upstream = optional('upstream', fields.optionalString('upstream'));
  return { ...local, ...upstream, ...optional('standInFor', fields.optionalString('standInFor')) };
}

/** The files a worker's clone may leave out (absent_files, the runner's checkout.ts), when the entry names some. */
function absentFilesOf(fields: WireFields): { absentFiles?: AbsentFile[] } {
  if (!fields.has('absentFiles')) return {};
  return {
    absentFiles: fields.list('absentFiles').map((file) => ({ path: file.string('path'), why: file.string('why') })),
  };
}

/** An entry --at moved to another era keeps the manifest's commit (catalog-name.ts). */
function eraOfEntry(manifestCommit: string | null | undefined): { manifestCommit?: string | null } {
  return manifestCommit === undefined ? {} : { manifestCommit };
}

function optional<K extends string>(key: K, value: string | undefined): Partial<Record<K, string>> {
  return value === undefined ? {} : ({ [key]: value } as Partial<Record<K, string>>);
}

type OptionalList<K extends string> = Partial<Record<K, readonly string[]>>;

function optionalList<K extends string>(key: K, value: readonly string[] | undefined): OptionalList<K> {
  return value === undefined ? {} : ({ [key]: value } as OptionalList<K>);
}

function readJob(fields: WireFields): RunJob {
  return {
    repository: fields.string('repository'),
    patches: fields.strings('patches'),
    tests: fields.testsOrAll('tests'),
    paths: fields.optionalStrings('paths'),
    ignore: fields.optionalStrings('ignore'),
    timeoutSeconds: fields.optionalNumber('timeoutSeconds'),
    repeat: fields.optionalNumber('repeat'),
    pytestArgs: fields.optionalStrings('pytestArgs'),
    plugins: fields.optionalListOf('plugins', PLUGINS),
    pluginInput: fields.optionalString('pluginInput'),
  };
}
