import { join } from 'node:path';
import { downloadFile, listFiles } from '@huggingface/hub';
import type { ListFileEntry, RepoId } from '@huggingface/hub';
import { RepocodError } from '@repocod/core';
import { parse } from 'yaml';
import { describeHubError } from './hub-error.js';
import { type HubReleaseSource, hubDatasetUrl, hubReleaseCard, writeVerified } from './hub-release.js';
import { checkHubToken, parseHubRepo } from './hub-target.js';

/** One config of a Hub dataset as its card's `configs:` declares it: its name and its data files' patterns. */
export interface HubDatasetConfig {
  readonly name: string;
  readonly patterns: readonly string[];
  readonly isDefault: boolean;
}

export interface DownloadedDataset {
  readonly folder: string;
  readonly config: string;
  /** The Parquet files written, relative to the folder, in name order. */
  readonly files: readonly string[];
}

/**
 * The configs a dataset card declares (`configs: [{config_name, data_files: [{split, path}] | path}]`),
 * as the Hub's dataset viewer reads them; a card without `configs:` has one, `default`, of `data/*`.
 */
export function datasetConfigsOfCard(card: string, source: string): HubDatasetConfig[] {
  const match = /^---\n([\s\S]*?)\n---\n/.exec(card);
  if (match === null) return [{ name: 'default', patterns: ['data/*'], isDefault: true }];
  let document: { configs?: unknown };
  try {
    document = (parse(match[1] ?? '') ?? {}) as { configs?: unknown };
  } catch (error) {
    throw new RepocodError(
      'config-invalid',
      `${source}: the card's front matter is not YAML (${(error as Error).message})`,
    );
  }
  if (!Array.isArray(document.configs)) return [{ name: 'default', patterns: ['data/*'], isDefault: true }];
  return document.configs.map((entry, index) => {
    const config = (entry ?? {}) as { config_name?: unknown; data_files?: unknown; default?: unknown };
    const name = config.config_name;
    if (typeof name !== 'string' && typeof name !== 'number')
      throw new RepocodError('config-invalid', `${source}: configs[${index}] has no config_name`);
    const files = Array.isArray(config.data_files) ? config.data_files : [config.data_files];
    const patterns = files.flatMap((file) => {
      if (typeof file === 'string') return [file];
      const path = (file as { path?: unknown } | null)?.path;
      return Array.isArray(path) ? path.filter((item): item is string => typeof item === 'string') : [path];
    });
    if (patterns.some((pattern) => typeof pattern !== 'string') || patterns.length === 0)
      throw new RepocodError('config-invalid', `${source}: configs[${index}] (${name}) has no data_files path`);
    return {
      name: String(name),
      patterns: patterns as string[],
      isDefault: config.default === true || name === 'default',
    };
  });
}

/** A data_files pattern as the Hub reads it: `*` within a path segment, `**` across segments. */
export function dataFilesPattern(pattern: string): RegExp {
  const escaped = pattern
    .split('**')
    .map((part) =>
      part
        .split('*')
        .map((piece) => piece.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
        .join('[^/]*'),
    )
    .join('.*');
  return new RegExp(`^${escaped}$`);
}

/**
 * Downloads the Parquet files of one config of a Hub dataset (its card's `configs:`; default the one
 * marked default, else the only one) into `folder`, each checked against the Hub's size and LFS sha256
 * on the way (writeVerified): the input of a reference read from the Hub (`hub:ORG/NAME@REV`).
 */
export async function downloadHubDataset(
  source: HubReleaseSource & { readonly folder: string; readonly config: string | null },
): Promise<DownloadedDataset> {
  const target = parseHubRepo(source.repo);
  if (source.accessToken !== undefined) checkHubToken(source.accessToken, 'the access token');
  const where = `${hubDatasetUrl(source, target.id)}${source.revision === undefined ? '' : `@${source.revision}`}`;
  const card = await hubReleaseCard(source);
  if (card === null)
    throw new RepocodError('hub-failed', `${where}: no such dataset on the Hub, or it has no card (README.md)`);
  const configs = datasetConfigsOfCard(card, `${where}/README.md`);
  const config =
    source.config === null
      ? (configs.find((candidate) => candidate.isDefault) ?? (configs.length === 1 ? configs[0] : undefined))
      : configs.find((candidate) => candidate.name === source.config);
  if (config === undefined)
    throw new RepocodError(
      'usage',
      `${where}: ${source.config === null ? 'no default config' : `no config ${source.config}`}; its configs are ` +
        `${configs.map((candidate) => candidate.name).join(', ')} (choose one with --config)`,
    );
  const repo: RepoId = { type: 'dataset', name: target.id };
  const connection = { hubUrl: source.hubUrl, accessToken: source.accessToken, fetch: source.fetch };
  const at = source.revision === undefined ? {} : { revision: source.revision };
  const fail = (what: string, error: unknown): RepocodError =>
    new RepocodError('hub-failed', `${what} failed: ${describeHubError(error, source.accessToken)}`);
  const entries: ListFileEntry[] = [];
  try {
    for await (const entry of listFiles({ repo, recursive: true, ...connection, ...at })) entries.push(entry);
  } catch (error) {
    throw fail(`listing the files of ${where}`, error);
  }
  const patterns = config.patterns.map(dataFilesPattern);
  const wanted = entries
    .filter((entry) => entry.type === 'file' && entry.path.endsWith('.parquet'))
    .filter((entry) => patterns.some((pattern) => pattern.test(entry.path)))
    .sort((a, b) => (a.path < b.path ? -1 : 1));
  if (wanted.length === 0)
    throw new RepocodError(
      'hub-failed',
      `${where}: config ${config.name} (${config.patterns.join(', ')}) matches no Parquet file of the repository`,
    );
  for (const entry of wanted) {
    try {
      const blob = await downloadFile({ repo, path: entry.path, ...connection, ...at });
      if (blob === null) throw new Error(`${entry.path} vanished from the repository while downloading`);
      await writeVerified(join(source.folder, entry.path), blob, entry);
    } catch (error) {
      throw fail(`downloading ${where}/${entry.path}`, error);
    }
  }
  return { folder: source.folder, config: config.name, files: wanted.map((entry) => entry.path) };
}
