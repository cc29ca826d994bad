import type { LineReplacement } from '@repocod/core';
import { splitLinesKeepingEnds } from '@repocod/core';

/**
 * REPOCOD's evaluator's insertion (`evaluate_repo` in evaluate/evaluate.py of lt-asset/REPOCOD), verbatim. Its
 * rule, as that code applies it to the lines of the function's `function_definition` node:
 * - an output that starts with `def ` once stripped replaces the function from its `def` line (decorators, outside
 *   that node, stay) through its end: here, through the prompt of the pre state;
 * - any other output follows the prompt (`prompt + output.splitlines(True)`): here, it goes after the prompt.
 * Nothing is re-indented and nothing is removed: no fence, no prose, no leading blank line. An output without a final
 * newline runs into the line after it, as `writelines` joins them. (An `async def` or a decorator goes after the
 * prompt, as that test reads it.) The evaluator then runs the tests with `pytest -x` and resolves on exit status 0.
 */
export function repocodReplacement(
  output: string,
  site: { readonly defLine: number; readonly bodyLine: number; readonly preText: string },
): LineReplacement | null {
  if (output === '') return null;
  const start = output.trim().startsWith('def ') ? site.defLine : site.bodyLine;
  const lines = splitLinesKeepingEnds(site.preText);
  const following = lines[site.bodyLine - 1];
  // The output's last line without its newline takes the next line of the file into itself.
  if (!output.endsWith('\n') && following !== undefined)
    return { start, end: site.bodyLine, lines: splitLinesKeepingEnds(output + following) };
  return { start, end: site.bodyLine - 1, lines: splitLinesKeepingEnds(output) };
}
