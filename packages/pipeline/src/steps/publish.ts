import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Catalog } from '@repocod/catalog';
import { RepocodError } from '@repocod/core';
import type { DownloadedRelease, PushPlan, PushResult, ReleasePlan, WrittenRelease } from '@repocod/publish';
import {
  applyReleasePlan,
  configsOfCard,
  downloadHubRelease,
  hubReleaseCard,
  planPush,
  planRelease,
  pushRelease,
  releaseFiles,
  repairHubCard,
} from '@repocod/publish';
import type { ReleaseReferenceOptions } from '../reference/reference-of-release.js';
import type { ReleaseContent } from '../release/release-content.js';
import { releaseContent } from '../release/release-content.js';
import { changesSection } from '../release/changes-section.js';
import { changesOfNewVersion } from '../release/changes-of-new-version.js';
import type { VersionDiffReport } from '../release/version-diff.js';

/** Where a release goes on the Hub. */
export interface HubTarget {
  /** `ORG/NAME` of the dataset repository. */
  readonly repo: string;
  /** Another endpoint than https://huggingface.co (a mirror, a test server). */
  readonly hubUrl?: string;
  readonly accessToken: string;
}

export interface PublishOptions {
  /** The version to add; without it the release folder is pushed as it is. */
  readonly version?: string;
  /** The release folder (default out/release under the project root). */
  readonly out: string;
  /** Which selection to release (default: the latest). */
  readonly selectionId?: string;
  /** Tasks that failed validation, released all the same. */
  readonly keep?: readonly string[];
  readonly push?: HubTarget;
  /** Write no version and upload nothing: say what would be (an empty folder is still filled from the Hub). */
  readonly dryRun?: boolean;
  /** The runner's state folder (`.repocod`): the release then lists its environments' packages. */
  readonly stateRoot?: string;
  /**
   * Where a selection over a reference (`select --reference`) finds it resolved, and `name` the one the
   * curator means (`--reference NAME`): the version then says what became of each of its rows.
   */
  readonly reference?: ReleaseReferenceOptions;
  /**
   * The cutoff the version's tasks were made with (`--changed-since`, UTC): the version records it (its
   * `freshness.json` and the card's "Freshness"), and every released task's body must have changed after it.
   */
  readonly changedSince?: string;
  /**
   * The earlier version the card's "Changes since" section compares with (`--diff-against`); default: the
   * folder's latest version. A first version has no such section.
   */
  readonly diffAgainst?: string;
}

export interface PublishSummary {
  readonly folder: string;
  readonly version: string | null;
  readonly dryRun: boolean;
  /** What the new version holds and why; null when only pushing. */
  readonly content: ReleaseContent | null;
  /** What it changes from an earlier version (the card's "Changes since" section); null for a first version. */
  readonly changes: VersionDiffReport | null;
  /** The release folder after this version (or as it is, when only pushing). */
  readonly release: WrittenRelease;
  /** Files written (or, on a dry run, to be written), with their sizes. */
  readonly writes: readonly { readonly path: string; readonly bytes: number }[];
  /** The earlier release brought from the Hub into an empty folder first. */
  readonly downloaded: DownloadedRelease | null;
  /** What is (or would be) uploaded; null without --push. */
  readonly upload: PushPlan | null;
  readonly commitTitle: string | null;
  readonly pushed: PushResult | null;
}

/**
 * `repocod publish`: the validated tasks of a selection as a new version of the release folder
 * (Parquet in the seed's schema, the card whose header lists every version, the validation record),
 * and with a Hub target the whole folder uploaded in one commit. An empty folder is first filled with
 * the release already on the Hub, so a new version lands beside the published ones. The folder is
 * written before anything is uploaded: a failed upload leaves it whole, to be pushed again as it is.
 */
export async function publishStep(catalog: Catalog, options: PublishOptions): Promise<PublishSummary> {
  const { version, out, push } = options;
  const dryRun = options.dryRun === true;
  if (version === undefined && push === undefined)
    throw new RepocodError(
      'usage',
      'give --version V to add a version, or --push ORG/NAME to upload the release folder as it is',
    );
  const downloaded = push === undefined ? null : await alignWithHub(out, push);

  let content: ReleaseContent | null = null;
  let plan: ReleasePlan | null = null;
  let changes: VersionDiffReport | null = null;
  if (version === undefined && options.diffAgainst !== undefined)
    throw new RepocodError('usage', `--diff-against ${options.diffAgainst} goes with --version V`);
  if (version !== undefined) {
    const envsRoot = options.stateRoot === undefined ? undefined : join(options.stateRoot, 'envs');
    content = await releaseContent(catalog, {
      version,
      selectionId: options.selectionId,
      keep: options.keep,
      envsRoot,
      reference: options.reference,
      changedSince: options.changedSince,
    });
    changes = await changesOfNewVersion(
      catalog,
      out,
      { name: version, rows: content.rows, extras: content.extras },
      { against: options.diffAgainst },
    );
    const body = changes === null ? content.body : `${content.body}\n${changesSection(changes)}`;
    plan = planRelease(out, version, content.rows, body, content.extras);
    if (!dryRun) applyReleasePlan(plan);
  }
  const release: WrittenRelease = plan ?? existingRelease(out);
  const writes = (plan?.writes ?? []).map((write) => ({ path: write.path, bytes: write.bytes.byteLength }));

  let upload: PushPlan | null = null;
  let pushed: PushResult | null = null;
  let commitTitle: string | null = null;
  if (push !== undefined) {
    commitTitle =
      version === undefined
        ? `Upload the release (versions ${release.configs.map((config) => config.version).join(', ')})`
        : `Add version ${version} (${content?.rows.length ?? 0} tasks)`;
    upload = dryRun ? plannedUpload(out, release.files, writes) : planPush(out, release.files);
    if (!dryRun) {
      const description =
        content === null
          ? undefined
          : `Selection ${content.selectionId}: ${content.rows.length} of ${content.selected} selected tasks released ` +
            `after validation (${content.counts.toolVersions.join(', ')}).`;
      pushed = await pushRelease({
        folder: out,
        files: release.files,
        repo: push.repo,
        hubUrl: push.hubUrl,
        accessToken: push.accessToken,
        commitTitle,
        commitDescription: description,
      });
    }
  }
  return {
    folder: out,
    version: version ?? null,
    dryRun,
    content,
    changes,
    release,
    writes,
    downloaded,
    upload,
    commitTitle,
    pushed,
  };
}

/**
 * Before writing for the Hub: an empty folder gets the Hub's release (its versions, to add the new one
 * beside); a folder of our own must hold every version the Hub's card lists, or the card it uploads
 * would drop published versions.
 */
async function alignWithHub(out: string, push: HubTarget): Promise<DownloadedRelease | null> {
  const source = { repo: push.repo, hubUrl: push.hubUrl, accessToken: push.accessToken };
  const cardPath = join(out, 'README.md');
  if (!existsSync(cardPath)) return downloadHubRelease({ ...source, folder: out });
  const card = await hubReleaseCard(source);
  if (card === null) return null;
  const local = new Set(existingRelease(out).configs.map((config) => config.version));
  const missing = configsOfCard(card, `${push.repo}/README.md`, repairHubCard(push.repo))
    .map((config) => config.version)
    .filter((remote) => !local.has(remote));
  if (missing.length > 0) {
    throw new RepocodError(
      'usage',
      `${push.repo} on the Hub has version(s) ${missing.join(', ')} that ${out} lacks; publishing from this folder ` +
        `would drop them from the card. Publish into an empty --out (it is filled from the Hub first), or bring ` +
        `those versions ` +
        `into ${out}`,
    );
  }
  return null;
}

function existingRelease(out: string): WrittenRelease {
  const cardPath = join(out, 'README.md');
  if (!existsSync(cardPath))
    throw new RepocodError(
      'path-not-found',
      `${out} holds no release (no README.md); write one first with --version V`,
    );
  const configs = configsOfCard(readFileSync(cardPath, 'utf8'), cardPath);
  return { folder: out, version: configs.at(-1)?.version ?? '', configs, files: releaseFiles(out), diff: null };
}

/** On a dry run the new files exist only in the plan: their planned sizes, the others' sizes on disk. */
function plannedUpload(
  out: string,
  files: readonly string[],
  writes: readonly { path: string; bytes: number }[],
): PushPlan {
  const planned = new Map(writes.map((write) => [write.path, write.bytes]));
  const listed = files.map((path) => ({ path, bytes: planned.get(path) ?? statSync(join(out, path)).size }));
  return { folder: out, files: listed, totalBytes: listed.reduce((sum, file) => sum + file.bytes, 0) };
}

export const DEFAULT_RELEASE_FOLDER = join('out', 'release');
