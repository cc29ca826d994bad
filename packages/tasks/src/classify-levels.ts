import type { LevelLabel, LevelMode, TaskLevels } from '@repocod/core';
import type { ContextTarget } from './classify-context.js';
import { classifyDeps } from './classify-context.js';
import { classifyRepocodV1 } from './classify-repocod-v1.js';
import { classifyRepocodV4 } from './classify-repocod-v4.js';
import type { RepositoryIndex } from './repository-index.js';

/** The classifier of each level mode (see LEVEL_MODES). */
export const LEVEL_CLASSIFIERS: Readonly<
  Record<LevelMode, (index: RepositoryIndex, target: ContextTarget) => LevelLabel>
> = {
  'repocod-v1': classifyRepocodV1,
  'repocod-v4': classifyRepocodV4,
  deps: classifyDeps,
};

/** A target's level under every mode: all are static and cheap, so a task keeps the three. */
export function classifyLevels(index: RepositoryIndex, target: ContextTarget): TaskLevels {
  return {
    'repocod-v1': classifyRepocodV1(index, target),
    'repocod-v4': classifyRepocodV4(index, target),
    deps: classifyDeps(index, target),
  };
}
