import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { RepocodError } from '@repocod/core';
import type { PromptSetting, TaskPrompt } from '@repocod/evaluate';
import { taskPrompt } from '@repocod/evaluate';
import { countTokens, lastTokens } from '@repocod/metrics';
import { readRelease } from '@repocod/publish';
import { loadPythonParser } from '@repocod/python';
import { repositoryOfTask } from './evaluate.js';
import type { PreparedRepositories } from './prepare.js';
import { SiteFinder } from './site-finder.js';

export interface PromptsStepOptions {
  /** The release folder (publish's layout) and its version (default: its default config). */
  readonly release: string;
  readonly version?: string;
  readonly setting: PromptSetting;
  /** The model's context in cl100k tokens: longer inputs are cut (task-prompt.ts); none: nothing is cut. */
  readonly modelContext?: number;
  /** The JSON-lines file written, one prompt per task. */
  readonly out: string;
}

export interface PromptsSummary {
  readonly file: string;
  readonly version: string;
  readonly setting: PromptSetting;
  readonly prompts: readonly TaskPrompt[];
}

/**
 * `repocod prompts`: each task of a release as REPOCOD's inference example prompts a model, under one of its paper's
 * settings, written as JSON lines. The file around the target is read from the task's repository at its base commit
 * with the pre patch's removal: the body is never in it.
 */
export async function promptsStep(
  repositories: PreparedRepositories,
  options: PromptsStepOptions,
): Promise<PromptsSummary> {
  const release = readRelease(options.release, options.version);
  const entries = repositories.manifestEntries();
  const parser = await loadPythonParser();
  const finders = new Map<string, SiteFinder>();
  const tokenizer = { name: 'cl100k', count: countTokens, lastTokens };
  const prompts: TaskPrompt[] = [];
  for (const task of release.tasks) {
    const repository = repositoryOfTask(task, entries);
    if (repository === undefined)
      throw new RepocodError(
        'usage',
        `${release.file}: no repository of the manifest is ${task.repo} (task ${task.instanceId}); give the manifest \
the release was built with (--manifest)`,
      );
    let finder = finders.get(repository);
    if (finder === undefined) {
      finder = new SiteFinder(await repositories.get(repository), parser);
      finders.set(repository, finder);
    }
    if (finder.baseCommit !== task.baseCommit)
      throw new RepocodError(
        'usage',
        `${task.instanceId}: the task is at ${task.baseCommit.slice(0, 12)}, the prepared ${repository} at \
${finder.baseCommit.slice(0, 12)}; give the sources and --at the release was built with`,
      );
    prompts.push(taskPrompt(task, finder.completionSite(task), options.setting, tokenizer, options.modelContext));
  }
  mkdirSync(dirname(options.out), { recursive: true });
  writeFileSync(options.out, prompts.map((prompt) => `${JSON.stringify(prompt)}\n`).join(''));
  return { file: options.out, version: release.version, setting: options.setting, prompts };
}
