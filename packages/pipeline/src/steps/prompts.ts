import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { RepocodError, removedBody } from '@repocod/core';
import { promptTokenizer } from '@repocod/metrics';
import type { CompletionSite } from '@repocod/evaluate';
import type { PromptFunctions, PromptSetting, TaskCorpus, TaskPrompt } from '@repocod/prompts';
import { givesFunctions, promptTarget, taskPrompt } from '@repocod/prompts';
import type { ReleaseTask } from '@repocod/publish';
import { readRelease, shipPrompts } from '@repocod/publish';
import { projectName } from '@repocod/runner';
import { loadPythonParser } from '@repocod/python';
import { EmbeddingCommand } from '../prompting/embedding-command.js';
import type { FunctionsTask } from '../prompting/prompt-functions.js';
import { corpusOfTask, promptFunctions } from '../prompting/prompt-functions.js';
import { RepositoryCorpus } from '../prompting/repository-corpus.js';
import { repositoryOfTask } from './evaluate.js';
import type { PreparedRepositories } from './prepare.js';
import { SiteFinder } from './site-finder.js';

/** How many functions the retrieval settings give when `--top` is not said. */
export const DEFAULT_TOP_FUNCTIONS = 5;

export interface PromptsStepOptions {
  /** The release folder (publish's layout) and its version (default: its default config). */
  readonly release: string;
  readonly version?: string;
  readonly setting: PromptSetting;
  /** The model's context in tokens: longer inputs are cut (prompts/task-prompt.ts); none: nothing is cut. */
  readonly modelContext?: number;
  /** The tokenizer prompts are measured and cut with (metrics' prompt-tokenizers.ts): cl100k by default. */
  readonly tokenizer?: string;
  /** How many functions bm25 and dense give (DEFAULT_TOP_FUNCTIONS by default). */
  readonly top?: number;
  /** The dense setting's embedding command (prompting/embedding-command.ts). */
  readonly embedCommand?: string;
  /**
   * Where the prompts go, one JSON line per task: a file, or (`release`) the release itself, as
   * `<version>/prompts/<setting>.jsonl` named in its card (publish's release-prompts.ts).
   */
  readonly out: string | { readonly into: 'release' };
  /** A line per repository: its tasks, and its corpus's size and time. */
  readonly onLog?: (line: string) => void;
}

export interface PromptsSummary {
  readonly file: string;
  readonly version: string;
  readonly setting: PromptSetting;
  readonly prompts: readonly TaskPrompt[];
  /** The dense setting's command, and how many times it ran on how many texts. */
  readonly embedding: { readonly command: string; readonly runs: number; readonly texts: number } | null;
}

/**
 * `repocod prompts`: each task of a release as REPOCOD's inference example prompts a model, under one of its paper's
 * settings, written as JSON lines. The file around the target is read from the task's repository at its base commit
 * with the pre patch's removal, and the functions retrieval and the callees give come from a corpus of the
 * repository's functions in that same state: the body is never in a prompt.
 */
export async function promptsStep(
  repositories: PreparedRepositories,
  options: PromptsStepOptions,
): Promise<PromptsSummary> {
  const release = readRelease(options.release, options.version);
  const tokenizer = promptTokenizer(options.tokenizer ?? 'cl100k');
  const setting = options.setting;
  if (setting === 'dense' && options.embedCommand === undefined)
    throw new RepocodError(
      'usage',
      '--setting dense needs --embed-command CMD: the embedding model run as a command (docs/evaluate.md, Prompts)',
    );
  if (options.embedCommand !== undefined && setting !== 'dense')
    throw new RepocodError('usage', `--embed-command is for --setting dense, not ${setting}`);
  const top = options.top ?? DEFAULT_TOP_FUNCTIONS;
  if (!Number.isInteger(top) || top < 1) throw new RepocodError('usage', `--top ${top}: give a whole number above 0`);
  const embedder = options.embedCommand === undefined ? undefined : new EmbeddingCommand(options.embedCommand);
  const entries = repositories.manifestEntries();
  const byRepository = new Map<string, ReleaseTask[]>();
  for (const task of release.tasks) {
    const repository = repositoryOfTask(task, entries);
    if (repository === undefined)
      throw new RepocodError(
        'usage',
        `${release.file}: no repository of the manifest is ${task.repo} (task ${task.instanceId}); give the manifest ` +
          `the release was built with (--manifest)`,
      );
    byRepository.set(repository, [...(byRepository.get(repository) ?? []), task]);
  }
  const parser = await loadPythonParser();
  const written = new Map<string, TaskPrompt>();
  // One repository at a time, its corpus dropped before the next is read.
  for (const [repository, tasks] of byRepository) {
    const prepared = await repositories.get(repository);
    const finder = new SiteFinder(prepared, parser);
    const elsewhere = tasks.find((task) => task.baseCommit !== finder.baseCommit);
    if (elsewhere !== undefined)
      throw new RepocodError(
        'usage',
        `${elsewhere.instanceId}: the task is at ${elsewhere.baseCommit.slice(0, 12)}, the prepared ${repository} at ` +
          `${finder.baseCommit.slice(0, 12)}; give the sources and --at the release was built with`,
      );
    const started = performance.now();
    const corpus = givesFunctions(setting) ? RepositoryCorpus.read(prepared.checkout.path, parser) : null;
    const read = performance.now();
    const sites = new Map(tasks.map((task) => [task.instanceId, finder.completionSite(task)]));
    const functionsTaskOf = (task: ReleaseTask): FunctionsTask => {
      const site = sites.get(task.instanceId) as CompletionSite;
      const removal = removedBody(task.preCode);
      return {
        instanceId: task.instanceId,
        file: site.file,
        defLine: site.defLine,
        bodyStart: removal.start,
        bodyEnd: removal.end,
        preTest: task.preTest,
        query: promptTarget(site),
      };
    };
    // Dense needs every task's corpus before its first ranking, to embed a repository in one run of the model;
    // the other settings make each task's corpus when they come to it.
    const corpora = new Map<string, TaskCorpus>();
    if (corpus !== null && embedder !== undefined) {
      embedder.forget();
      const texts = new Set<string>();
      for (const task of tasks) {
        const each = corpusOfTask(corpus, functionsTaskOf(task));
        corpora.set(task.instanceId, each);
        texts.add(promptTarget(sites.get(task.instanceId) as CompletionSite));
        for (const fn of each.functions) texts.add(fn.text);
      }
      await embedder.embed([...texts]);
    }
    for (const task of tasks) {
      const site = sites.get(task.instanceId) as CompletionSite;
      let functions: PromptFunctions | null = null;
      if (corpus !== null && givesFunctions(setting)) {
        const target = functionsTaskOf(task);
        const taskCorpus = corpora.get(task.instanceId) ?? corpusOfTask(corpus, target);
        corpora.delete(task.instanceId);
        functions = await promptFunctions(setting, corpus, target, taskCorpus, { top, embedder });
      }
      const named = { instanceId: task.instanceId, repository: projectName(repository) };
      written.set(
        task.instanceId,
        taskPrompt(named, site, setting, tokenizer, options.modelContext ?? null, functions),
      );
    }
    options.onLog?.(
      `${repository}: ${tasks.length} prompt(s)` +
        (corpus === null
          ? ''
          : `, a corpus of ${corpus.functions.length} functions read in ${seconds(read - started)} s, the prompts ` +
            `made in ${seconds(performance.now() - read)} s`),
    );
  }
  const prompts = release.tasks.map((task) => written.get(task.instanceId) as TaskPrompt);
  const content = prompts.map((prompt) => `${JSON.stringify(prompt)}\n`).join('');
  let file: string;
  if (typeof options.out === 'string') {
    mkdirSync(dirname(options.out), { recursive: true });
    writeFileSync(options.out, content);
    file = options.out;
  } else file = join(options.release, shipPrompts(options.release, release.version, setting, content).path);
  return {
    file,
    version: release.version,
    setting,
    prompts,
    embedding:
      embedder === undefined ? null : { command: embedder.command, runs: embedder.runs, texts: embedder.texts },
  };
}

function seconds(milliseconds: number): string {
  return (milliseconds / 1000).toFixed(1);
}
