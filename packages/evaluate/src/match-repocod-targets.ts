import type { Prediction, PredictionProblem } from './prediction.js';

/** A task as REPOCOD's output can name it. */
export interface NamedTask {
  readonly instanceId: string;
  readonly repository: string;
  /** Repository-relative path of the function's file, and its qualified name in it. */
  readonly file: string;
  readonly qualname: string;
  /** The prompt (signature and docstring), to tell apart tasks the name alone does not. */
  readonly prompt: string | null;
}

/**
 * REPOCOD names a target by repository and `function_name`, a dotted suffix of file.Class.function
 * (`Continuous.label`, `axisgrid.PairGrid.__init__`, `__init__.ObjectDescription.run`; its module part
 * is the file's basename, `__init__` for a package); a name alone is not unique. A REPOCOD prediction is
 * matched with the task of its repository whose dotted name ends with that suffix; several such tasks
 * are told apart by the prompt (whitespace aside), and a prediction still ambiguous, or matching
 * nothing, is a problem named with its source.
 */
export function matchRepocodTargets(
  predictions: readonly Prediction[],
  tasks: readonly NamedTask[],
): { readonly predictions: Prediction[]; readonly problems: PredictionProblem[] } {
  const matched: Prediction[] = [];
  const problems: PredictionProblem[] = [];
  for (const prediction of predictions) {
    const { target } = prediction;
    if (target.kind === 'instance') {
      matched.push(prediction);
      continue;
    }
    const ofRepository = tasks.filter((task) => task.repository === target.repository);
    if (ofRepository.length === 0) {
      problems.push({ source: prediction.source, field: null, message: `no task of repository ${target.repository}` });
      continue;
    }
    let found = ofRepository.filter((task) => endsWithName(dottedName(task), target.functionName));
    if (found.length > 1 && target.prompt !== null) {
      const prompt = squeeze(target.prompt);
      const byPrompt = found.filter((task) => task.prompt !== null && squeeze(task.prompt) === prompt);
      if (byPrompt.length > 0) found = byPrompt;
    }
    const only = found[0];
    if (only === undefined || found.length > 1) {
      const message =
        only === undefined
          ? `no task of ${target.repository} is named ${target.functionName}`
          : `${target.functionName} names ${found.length} tasks of ${target.repository} (${found
              .slice(0, 3)
              .map((task) => task.instanceId)
              .join(', ')}${found.length > 3 ? ', …' : ''}) and the prompt does not tell them apart`;
      problems.push({ source: prediction.source, field: 'function_name', message });
      continue;
    }
    matched.push({ ...prediction, target: { kind: 'instance', instanceId: only.instanceId } });
  }
  return { predictions: matched, problems };
}

/** `pkg/sub/mod.py` + `Class.f` → `pkg.sub.mod.Class.f`; a package's `pkg/__init__.py` is `pkg.__init__`. */
export function dottedName(task: Pick<NamedTask, 'file' | 'qualname'>): string {
  const module = task.file.replace(/\.py$/, '').split('/').join('.');
  return `${module}.${task.qualname}`;
}

function endsWithName(dotted: string, name: string): boolean {
  return dotted === name || dotted.endsWith(`.${name}`);
}

function squeeze(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
