import { createHash } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { downloadFile, HUB_URL, listFiles, repoExists } from '@huggingface/hub';
import type { ListFileEntry, RepoId } from '@huggingface/hub';
import { RepocodError } from '@repocod/core';
import { configsOfCard } from './dataset-card.js';
import { describeHubError } from './hub-error.js';
import { checkHubToken, parseHubRepo } from './hub-target.js';
import type { ReleaseFile } from './push-release.js';
import { PARQUET_NAME } from './release-folder.js';

export interface HubReleaseSource {
  /** `ORG/NAME` of the dataset repository. */
  readonly repo: string;
  /** Defaults to https://huggingface.co. */
  readonly hubUrl?: string;
  /** Needed for a private repository only. */
  readonly accessToken?: string;
  /** A branch, tag or commit of the dataset repository (default: main). */
  readonly revision?: string;
  readonly fetch?: typeof fetch;
}

export interface DownloadedRelease {
  readonly folder: string;
  /** The versions the Hub's card lists, oldest first. */
  readonly versions: readonly string[];
  /** What was written, relative to the folder, README.md last. */
  readonly files: readonly ReleaseFile[];
}

/**
 * The dataset card (README.md) of the release on the Hub, or null when the repository or its card
 * does not exist: the first push of a release finds null and starts at its first version.
 */
export async function hubReleaseCard(source: HubReleaseSource): Promise<string | null> {
  const target = parseHubRepo(source.repo);
  if (source.accessToken !== undefined) checkHubToken(source.accessToken, 'the access token');
  const repo: RepoId = { type: 'dataset', name: target.id };
  const connection = { hubUrl: source.hubUrl, accessToken: source.accessToken, fetch: source.fetch };
  const at = source.revision === undefined ? {} : { revision: source.revision };
  try {
    if (!(await repoExists({ repo, ...connection }))) return null;
    const card = await downloadFile({ repo, path: 'README.md', ...connection, ...at });
    return card === null ? null : await card.text();
  } catch (error) {
    throw new RepocodError(
      'hub-failed',
      `reading the dataset card of ${hubDatasetUrl(source, target.id)} failed: ` +
        `${describeHubError(error, source.accessToken)}`,
    );
  }
}

/**
 * Brings the release on the Hub into `folder` so a new version can be written beside its versions:
 * the Parquet of every version its card lists (with the other files of its folder, such as its
 * validation record), data/ (the default config), then README.md. Returns
 * null, writing nothing, when the Hub has no card. Each file goes through a temporary name and is
 * checked against the Hub's size and LFS sha256 before it is renamed, and the card comes last, so an
 * interrupted download leaves no half file and no card: the folder does not look like a release
 * and a rerun starts again. A folder that already holds a README.md is refused, never overwritten.
 */
export async function downloadHubRelease(
  source: HubReleaseSource & { readonly folder: string },
): Promise<DownloadedRelease | null> {
  const target = parseHubRepo(source.repo);
  const where = hubDatasetUrl(source, target.id);
  const card = await hubReleaseCard(source);
  if (card === null) return null;
  const versions = configsOfCard(card, `${where}/README.md`, repairHubCard(target.id)).map((config) => config.version);
  const cardPath = join(source.folder, 'README.md');
  if (existsSync(cardPath)) {
    throw new RepocodError(
      'usage',
      `${source.folder} already holds a release (${cardPath}); the Hub's release of ${target.id} (versions ` +
        `${versions.join(', ')}) is downloaded into a folder without README.md only: choose another --out, or move ` +
        `that folder ` +
        `away`,
    );
  }
  const repo: RepoId = { type: 'dataset', name: target.id };
  const connection = { hubUrl: source.hubUrl, accessToken: source.accessToken, fetch: source.fetch };
  const at = source.revision === undefined ? {} : { revision: source.revision };
  const fail = (what: string, error: unknown): RepocodError =>
    new RepocodError(
      'hub-failed',
      `${what} failed: ${describeHubError(error, source.accessToken)}. No half-written file and no README.md were ` +
        `left ` +
        `in ${source.folder}; rerunning downloads the release again`,
    );

  let tree: Map<string, ListFileEntry>;
  try {
    tree = new Map<string, ListFileEntry>();
    for await (const entry of listFiles({ repo, recursive: true, ...connection, ...at })) tree.set(entry.path, entry);
  } catch (error) {
    throw fail(`listing the files of ${where}`, error);
  }
  const required = [...versions.map((version) => `${version}/${PARQUET_NAME}`), `data/${PARQUET_NAME}`];
  const absent = required.filter((path) => tree.get(path)?.type !== 'file');
  // A version's other files (its validation record) come too: the folder is pushed whole later.
  const folders = [...versions, 'data'].map((folder) => `${folder}/`);
  const beside = [...tree.values()]
    .filter(
      (entry) =>
        entry.type === 'file' &&
        !required.includes(entry.path) &&
        folders.some((folder) => entry.path.startsWith(folder)),
    )
    .map((entry) => entry.path)
    .sort();
  const wanted = [...required, ...beside];
  if (absent.length > 0) {
    throw new RepocodError(
      'hub-failed',
      `${where}/README.md lists versions ${versions.join(', ')} but the repository has no ${absent.join(', ')}; ` +
        `repair ` +
        `the dataset on the Hub (or publish from the complete local release folder)`,
    );
  }

  const written: ReleaseFile[] = [];
  for (const path of wanted) {
    const entry = tree.get(path);
    try {
      const blob = await downloadFile({ repo, path, ...connection, ...at });
      if (blob === null) throw new Error(`${path} vanished from the repository while downloading`);
      const bytes = await writeVerified(join(source.folder, path), blob, entry);
      written.push({ path, bytes });
    } catch (error) {
      throw fail(`downloading ${where}/${path}`, error);
    }
  }
  const cardBytes = Buffer.from(card, 'utf8');
  await writeThroughTemporary(cardPath, (temporary) => writeFile(temporary, cardBytes));
  written.push({ path: 'README.md', bytes: cardBytes.byteLength });
  return { folder: source.folder, versions, files: written };
}

/** Streams the blob to `path` through `path.partial`, renaming only when size and sha256 are the Hub's. */
export async function writeVerified(path: string, blob: Blob, entry: ListFileEntry | undefined): Promise<number> {
  const hash = createHash('sha256');
  let bytes = 0;
  await writeThroughTemporary(path, async (temporary) => {
    await pipeline(
      blob.stream(),
      async function* (chunks: AsyncIterable<Uint8Array>) {
        for await (const chunk of chunks) {
          hash.update(chunk);
          bytes += chunk.byteLength;
          yield chunk;
        }
      },
      createWriteStream(temporary),
    );
    if (entry !== undefined && bytes !== entry.size)
      throw new Error(`received ${bytes} bytes, the Hub lists ${entry.size}`);
    const sha256 = hash.digest('hex');
    if (entry?.lfs !== undefined && sha256 !== entry.lfs.oid)
      throw new Error(`the sha256 of the bytes received is ${sha256}, the Hub lists ${entry.lfs.oid}`);
  });
  return bytes;
}

async function writeThroughTemporary(path: string, write: (temporary: string) => Promise<void>): Promise<void> {
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.partial`;
  try {
    await write(temporary);
    renameSync(temporary, path);
  } finally {
    rmSync(temporary, { force: true });
  }
}

/** What to do about a card on the Hub that is not a release's: upload a whole release folder over it. */
export function repairHubCard(repo: string): string {
  return `repair the card on the Hub: \`repocod publish --push ${repo} --out DIR\` uploads a whole release folder`;
}

export function hubDatasetUrl(source: HubReleaseSource, id: string): string {
  return `${source.hubUrl ?? HUB_URL}/datasets/${id}`;
}
