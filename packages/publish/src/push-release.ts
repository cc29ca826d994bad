import { openAsBlob, statSync } from 'node:fs';
import { isAbsolute, join, sep } from 'node:path';
import { commit, createRepo, HUB_URL, HubApiError, repoExists } from '@huggingface/hub';
import type { CommitOperation, RepoId } from '@huggingface/hub';
import { RepocodError } from '@repocod/core';
import { describeHubError } from './hub-error.js';
import type { HubRepo } from './hub-target.js';
import { checkHubToken, parseHubRepo } from './hub-target.js';

/** A file of a release folder as the Hub will hold it: its path in the repository and its size. */
export interface ReleaseFile {
  /** Relative to the release folder, with `/` whatever the platform: the path in the repository. */
  readonly path: string;
  readonly bytes: number;
}

export interface PushPlan {
  readonly folder: string;
  readonly files: readonly ReleaseFile[];
  readonly totalBytes: number;
}

/**
 * What a push of `files` (relative to `folder`) would upload: each path with its size, and the
 * total. Touches nothing but the file system's metadata, so `--dry-run` can list it; a path that is
 * missing, absolute or climbs out of the folder is refused here, before any network call.
 */
export function planPush(folder: string, files: readonly string[]): PushPlan {
  const seen = new Set<string>();
  const planned = files.map((file): ReleaseFile => {
    const path = file.split(sep).join('/');
    if (
      path === '' ||
      isAbsolute(file) ||
      path.split('/').some((part) => part === '' || part === '.' || part === '..')
    ) {
      throw new RepocodError(
        'usage',
        `${JSON.stringify(file)}: release files are given relative to the release folder (${folder}), without "." or ` +
          `".." parts`,
      );
    }
    if (seen.has(path)) throw new RepocodError('usage', `${path} is listed twice among the files to push`);
    seen.add(path);
    const local = join(folder, file);
    let size: number;
    try {
      const stats = statSync(local);
      if (!stats.isFile())
        throw new RepocodError(
          'path-not-found',
          `${local} is not a file; a release folder holds README.md and Parquet files`,
        );
      size = stats.size;
    } catch (error) {
      if (error instanceof RepocodError) throw error;
      throw new RepocodError(
        'path-not-found',
        `${local} does not exist; write the release first (repocod publish --version V --out ${folder})`,
      );
    }
    return { path, bytes: size };
  });
  return { folder, files: planned, totalBytes: planned.reduce((sum, file) => sum + file.bytes, 0) };
}

export interface PushReleaseOptions {
  readonly folder: string;
  /** Relative to `folder`: README.md, data/test-00000-of-00001.parquet, 1.0/test-00000-of-00001.parquet … */
  readonly files: readonly string[];
  /** `ORG/NAME` of the dataset repository. */
  readonly repo: string;
  /** Defaults to https://huggingface.co. */
  readonly hubUrl?: string;
  readonly accessToken: string;
  readonly commitTitle: string;
  readonly commitDescription?: string;
  readonly fetch?: typeof fetch;
}

export interface PushResult {
  /** The dataset repository did not exist and this push created it. */
  readonly created: boolean;
  readonly commitOid: string;
  readonly commitUrl: string;
  readonly uploaded: readonly ReleaseFile[];
}

/**
 * Pushes a release folder to a Hub dataset repository: creates the repository when it does not
 * exist, then uploads every given file in one commit, so the Hub never shows a card whose versions
 * are not all there. The library's default transfer is kept (xet where the Hub offers it, basic LFS
 * otherwise). The folder is only read. Every failure is a RepocodError('hub-failed') that says which
 * step failed and how to rerun, with the token masked.
 */
export async function pushRelease(options: PushReleaseOptions): Promise<PushResult> {
  const target = parseHubRepo(options.repo);
  checkHubToken(options.accessToken, 'the access token');
  const plan = planPush(options.folder, options.files);
  if (plan.files.length === 0)
    throw new RepocodError('usage', `nothing to push from ${options.folder}: no files given`);
  const repo: RepoId = { type: 'dataset', name: target.id };
  const connection = { hubUrl: options.hubUrl, accessToken: options.accessToken, fetch: options.fetch };
  const where = `${options.hubUrl ?? HUB_URL}/datasets/${target.id}`;
  const step = async <T>(what: string, call: () => Promise<T>): Promise<T> => {
    try {
      return await call();
    } catch (error) {
      throw pushFailure(what, error, target, options);
    }
  };

  const exists = await step(`checking whether ${where} exists`, () => repoExists({ repo, ...connection }));
  if (!exists) {
    await step(`creating the dataset repository ${where}`, async () => {
      try {
        await createRepo({ repo, ...connection });
      } catch (error) {
        // repoExists answers false for a 401 as well as a 404, so a repository the token cannot read
        // looks absent; the Hub's 409 is the first sign of it.
        if (error instanceof HubApiError && error.statusCode === 409) {
          throw new HubApiError(
            error.url,
            409,
            error.requestId,
            `${error.message} (it exists, but the token cannot read it: a private repository of another account, or ` +
              `a ` +
              `token without access to ${target.org}?)`,
          );
        }
        throw error;
      }
    });
  }

  const operations = await Promise.all(
    plan.files.map(
      async (file): Promise<CommitOperation> => ({
        operation: 'addOrUpdate',
        path: file.path,
        content: await openAsBlob(join(options.folder, file.path)),
      }),
    ),
  );
  const output = await step(
    `uploading ${plan.files.length} files (${plan.totalBytes} bytes) to ${where} in one commit`,
    () =>
      commit({
        repo,
        ...connection,
        operations,
        title: options.commitTitle,
        ...(options.commitDescription === undefined ? {} : { description: options.commitDescription }),
      }),
  );
  if (output === undefined)
    throw pushFailure(`committing to ${where}`, new Error('the Hub answered without a commit'), target, options);
  return { created: !exists, commitOid: output.commit.oid, commitUrl: output.commit.url, uploaded: plan.files };
}

function pushFailure(what: string, error: unknown, target: HubRepo, options: PushReleaseOptions): RepocodError {
  return new RepocodError(
    'hub-failed',
    `${what} failed: ${describeHubError(error, options.accessToken)}. The release folder ${options.folder} was not ` +
      `changed; once the cause is fixed, rerun: repocod publish --push ${target.id} --out ${options.folder}`,
  );
}
