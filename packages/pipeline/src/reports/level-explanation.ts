import type { StoredTask } from '@repocod/catalog';
import type { LevelCall, LevelMode } from '@repocod/core';
import { LEVEL_MODES } from '@repocod/core';

/**
 * Why a task has its level, in the words `repocod show` and the TUI's task screen both print: under
 * `deps` the dependencies with how they were reached, under the other modes the calls that counted;
 * then the task's label under every mode, each with the uses behind it.
 */
export interface LevelExplanation {
  /** After the level itself: `, because it uses:`, ` under repocod-v1, because of:` … */
  readonly summary: string;
  readonly reasons: readonly string[];
  readonly modes: readonly { readonly mode: LevelMode; readonly line: string; readonly uses: readonly string[] }[];
}

export function explainLevel(
  task: Pick<StoredTask, 'level' | 'levelMode' | 'levels' | 'dependencies'>,
): LevelExplanation {
  const current = task.levels[task.levelMode];
  const byDependencies = task.levelMode === 'deps' || current === undefined;
  const summary = byDependencies
    ? task.dependencies.length === 0
      ? ' (uses no function or class of the repository)'
      : ', because it uses:'
    : ` under ${task.levelMode} (the uses that decided it are listed with the mode)`;
  // Under a call-based mode the uses are the mode's own list, shown once below.
  const reasons = byDependencies
    ? task.dependencies.map(
        (dep) => `${dep.name} → ${dep.kind} ${dep.qualname} (${dep.file}:${dep.line}, via ${dep.via})`,
      )
    : [];
  const modes = LEVEL_MODES.map((mode) => {
    const label = task.levels[mode];
    if (label === undefined)
      return {
        mode,
        line: `${mode.padEnd(11)} not labelled (built before the level modes: repocod tasks labels it)`,
        uses: [],
      };
    const mark = mode === task.levelMode ? ' (current)' : '';
    const why = label.calls.length === 0 ? 'nothing counts' : `${label.calls.length} use(s) counted:`;
    return { mode, line: `${mode.padEnd(11)} ${label.level.padEnd(15)}${mark} ${why}`, uses: label.calls.map(useLine) };
  });
  return { summary, reasons, modes };
}

/** One use: where it is, the callee as written, what it resolved to and the rule that counted it. */
export function useLine(call: LevelCall): string {
  return `line ${call.line}: ${call.callee} → ${call.qualname} (${call.file}:${call.definitionLine}, ${call.rule})`;
}
