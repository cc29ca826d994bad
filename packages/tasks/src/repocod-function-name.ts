/**
 * REPOCOD's `function_name` for our tasks, so that a curator can match them with REPOCOD's by name and
 * REPOCOD's own evaluator can find them. The rules, stated once:
 *
 * - REPOCOD's evaluator (evaluate/eval_utils.py, remove_function_from_repo) reads the last two dotted
 *   parts of the name as (class, function) and looks for them in the task's file (target_module_path);
 *   a class part equal to the file's basename means a module-level function.
 * - So a method is named `Class.method`, with its innermost class (the one the evaluator looks for), and
 *   a module-level function by its name: `Continuous.label`, `load_dataset`.
 * - A name is a key among a repository's tasks (REPOCOD writes `failed_tests_{function_name}.txt`): tasks
 *   that share one are prefixed with their file's basename (`__init__` for a package's), then with
 *   their folders one at a time, until the names differ or the path runs out: `axisgrid.PairGrid.__init__`,
 *   `__init__.ObjectDescription.run`. The evaluator ignores the prefix; the basename form is the one
 *   Python's trace module prints, as REPOCOD's names with a module part have it.
 *
 * REPOCOD published no code that builds its names and its own are not uniform (sphinx names methods
 * bare, `add_role` for `Sphinx.add_role`); these are the names its evaluator resolves, and docs say so.
 */
export interface NamedFunction {
  readonly instanceId: string;
  /** Repository-relative path of the function's file. */
  readonly file: string;
  readonly qualname: string;
}

export function repocodFunctionNames(tasks: readonly NamedFunction[]): Map<string, string> {
  const states = tasks.map((task) => {
    const parts = task.qualname.split('.').filter((part) => part !== '<locals>');
    const folders = task.file.replace(/\.py$/, '').split('/');
    return { instanceId: task.instanceId, name: parts.slice(-2).join('.'), prefixes: folders.reverse(), used: 0 };
  });
  for (;;) {
    const byName = new Map<string, typeof states>();
    for (const state of states) byName.set(state.name, [...(byName.get(state.name) ?? []), state]);
    const clashing = [...byName.values()].filter((group) => group.length > 1);
    let extended = false;
    for (const group of clashing) {
      for (const state of group) {
        const prefix = state.prefixes[state.used];
        if (prefix === undefined) continue;
        state.name = `${prefix}.${state.name}`;
        state.used += 1;
        extended = true;
      }
    }
    if (!extended) break;
  }
  return new Map(states.map((state) => [state.instanceId, state.name]));
}
