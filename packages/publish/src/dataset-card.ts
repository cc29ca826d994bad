import { parse, stringify } from 'yaml';
import { BadReleaseFileError } from './bad-release-file-error.js';
import type { CardFeature } from './seed-schema.js';
import { cardFeatures } from './seed-schema.js';

/** One version of a release as the card's `dataset_info` describes it. */
export interface ConfigInfo {
  readonly version: string;
  /** Size of the Arrow data (what `datasets` reports as num_bytes and dataset_size). */
  readonly numBytes: number;
  readonly numExamples: number;
  /** Size of the Parquet file. */
  readonly downloadSize: number;
}

interface CardInfo {
  config_name: string;
  features: CardFeature[];
  splits: { name: string; num_bytes: number; num_examples: number }[];
  download_size: number;
  dataset_size: number;
}

/** A prompts file shipped in a release (release-prompts.ts), as the card's `configs` names it. */
export interface PromptsConfig {
  readonly configName: string;
  /** Relative to the release folder: `<version>/prompts/<setting>.jsonl`. */
  readonly path: string;
}

/**
 * The card's YAML front matter, as the seed has it: `dataset_info` with the features and the split
 * sizes of every version and of `default`, and `configs` mapping each to its files (`<version>/test-*`,
 * `data/test-*` for default, which is the version given as `defaultVersion`). The prompts shipped in the
 * release follow as configs of their own, after default (their rows are prompts, not the seed's features).
 */
export function cardFrontMatter(
  configs: readonly ConfigInfo[],
  defaultVersion: string,
  prompts: readonly PromptsConfig[] = [],
): string {
  const current = configs.find((config) => config.version === defaultVersion);
  if (current === undefined) throw new Error(`the default version ${defaultVersion} is not among the configs`);
  const info = (name: string, config: ConfigInfo): CardInfo => ({
    config_name: name,
    features: cardFeatures(),
    splits: [{ name: 'test', num_bytes: config.numBytes, num_examples: config.numExamples }],
    download_size: config.downloadSize,
    dataset_size: config.numBytes,
  });
  const document = {
    dataset_info: [...configs.map((config) => info(config.version, config)), info('default', current)],
    configs: [
      ...configs.map((config) => ({
        config_name: config.version,
        data_files: [{ split: 'test', path: `${config.version}/test-*` }],
      })),
      { config_name: 'default', data_files: [{ split: 'test', path: 'data/test-*' }] },
      ...prompts.map((config) => ({
        config_name: config.configName,
        data_files: [{ split: 'test', path: config.path }],
      })),
    ],
  };
  return `---\n${stringify(document, { defaultStringType: 'PLAIN', defaultKeyType: 'PLAIN' })}---\n`;
}

/**
 * The versions an earlier release card lists (its `dataset_info`, `default` left out), oldest first. A card without
 * YAML front matter, or whose front matter is not YAML, is a BadReleaseFileError naming `source` and ending with
 * `fix` (by default: get the release again).
 */
export function configsOfCard(readme: string, source: string, fix?: string): ConfigInfo[] {
  const match = /^---\n([\s\S]*?)\n---\n/.exec(readme);
  if (match === null)
    throw new BadReleaseFileError(
      source,
      'bad-card',
      'no YAML front matter, the --- … --- block a card starts with',
      fix,
    );
  let document: { dataset_info?: CardInfo[] } | null;
  try {
    document = parse(match[1] ?? '') as { dataset_info?: CardInfo[] } | null;
  } catch (error) {
    // The yaml package's message goes on with a picture of the line; its first line says where.
    const said = (error instanceof Error ? error.message : String(error)).split('\n')[0]?.replace(/:$/, '');
    throw new BadReleaseFileError(source, 'bad-card', `its front matter is not YAML: ${said}`, fix);
  }
  const infos = document?.dataset_info ?? [];
  if (!Array.isArray(infos))
    throw new BadReleaseFileError(source, 'bad-card', 'its dataset_info is not a list of configs', fix);
  return infos
    .filter((info) => info.config_name !== 'default')
    .map((info) => ({
      version: String(info.config_name),
      numBytes: info.splits?.[0]?.num_bytes ?? info.dataset_size,
      numExamples: info.splits?.[0]?.num_examples ?? 0,
      downloadSize: info.download_size,
    }));
}
