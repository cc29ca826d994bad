import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RepocodError } from '@repocod/core';
import type { PromptsConfig } from './dataset-card.js';
import { cardFrontMatter, configsOfCard } from './dataset-card.js';
import { withPromptsSection } from './prompts-card-section.js';
import { writeAtomically } from './write-atomically.js';

/** The folder of a version's prompts in a release: `<version>/prompts/<setting>.jsonl`, one file per setting. */
export const PROMPTS_FOLDER = 'prompts';

/** A prompts file of a release, summed up from its lines for the card. */
export interface ReleasePrompts extends PromptsConfig {
  readonly version: string;
  readonly setting: string;
  readonly tasks: number;
  readonly tokenizer: string;
  readonly modelContext: number | null;
  readonly medianInputTokens: number;
  readonly maxInputTokens: number;
  /** How the functions before the target were found (`bm25 top 5, minisearch@7.2.0`), or null. */
  readonly retrieval: string | null;
}

/** The config a version's prompts of a setting are named by in the card. */
export function promptsConfigName(version: string, setting: string): string {
  return `${version}-prompts-${setting}`;
}

/** Every prompts file of the release's versions (the card's), oldest version first, settings by name. */
export function releasePrompts(folder: string, versions: readonly string[]): ReleasePrompts[] {
  return versions.flatMap((version) => {
    const directory = join(folder, version, PROMPTS_FOLDER);
    if (!existsSync(directory)) return [];
    return readdirSync(directory)
      .filter((name) => name.endsWith('.jsonl'))
      .sort()
      .map((name) => summarised(folder, version, name.slice(0, -'.jsonl'.length)));
  });
}

function summarised(folder: string, version: string, setting: string): ReleasePrompts {
  const path = join(version, PROMPTS_FOLDER, `${setting}.jsonl`);
  const rows = readFileSync(join(folder, path), 'utf8')
    .split('\n')
    .filter((line) => line.trim().length > 0)
    .map((line, index) => {
      try {
        return JSON.parse(line) as PromptRow;
      } catch {
        throw new RepocodError(
          'parse-error',
          `${join(folder, path)}:${index + 1}: not a JSON line; write the file again with repocod prompts`,
        );
      }
    });
  const inputs = rows.map((row) => row.tokens?.input ?? 0).sort((a, b) => a - b);
  const first = rows[0];
  const retrieval = first?.retrieval ?? null;
  return {
    configName: promptsConfigName(version, setting),
    path,
    version,
    setting,
    tasks: rows.length,
    tokenizer: first?.tokens?.tokenizer ?? '',
    modelContext: first?.tokens?.model_context ?? null,
    medianInputTokens: inputs[Math.floor((inputs.length - 1) / 2)] ?? 0,
    maxInputTokens: inputs.at(-1) ?? 0,
    retrieval:
      retrieval === null
        ? null
        : retrieval.method === 'callees'
          ? `the callees under ${retrieval.level_mode ?? ''}`
          : `${retrieval.method} top ${retrieval.top ?? ''}, ${retrieval.library ?? `\`${retrieval.command ?? ''}\``}`,
  };
}

/** The fields of a prompt line the card sums up (the prompts package writes them). */
interface PromptRow {
  readonly tokens?: { readonly tokenizer?: string; readonly input?: number; readonly model_context?: number | null };
  readonly retrieval?: {
    readonly method: string;
    readonly top?: number;
    readonly library?: string;
    readonly command?: string;
    readonly level_mode?: string;
  } | null;
}

/**
 * Ships a version's prompts of a setting in a release folder: the file at `<version>/prompts/<setting>.jsonl`
 * (written again when it is there), then the card, whose configs and prompts section name every prompts file of the
 * release. The version's data is never touched; the card's default version stays the newest.
 */
export function shipPrompts(
  folder: string,
  version: string,
  setting: string,
  content: string,
): { readonly path: string; readonly prompts: readonly ReleasePrompts[] } {
  const cardPath = join(folder, 'README.md');
  if (!existsSync(cardPath))
    throw new RepocodError('path-not-found', `${cardPath}: no card; publish the release before shipping prompts in it`);
  const card = readFileSync(cardPath, 'utf8');
  const configs = configsOfCard(card, cardPath);
  const versions = configs.map((config) => config.version);
  if (!versions.includes(version))
    throw new RepocodError(
      'usage',
      `${folder}: version ${version} is not released there (its card lists ${versions.join(', ')}); give one of them`,
    );
  const path = join(version, PROMPTS_FOLDER, `${setting}.jsonl`);
  writeAtomically(join(folder, path), content);
  const prompts = releasePrompts(folder, versions);
  // configsOfCard has read the front matter, so it is there.
  const body = card.replace(/^---\r?\n[\s\S]*?\r?\n---\r?\n/, '');
  const newest = versions.at(-1) as string;
  writeAtomically(cardPath, `${cardFrontMatter(configs, newest, prompts)}${withPromptsSection(body, prompts)}`);
  return { path, prompts };
}
