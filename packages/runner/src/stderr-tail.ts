import { tailLines } from '@repocod/core';

/** How many lines of a failed helper command's stderr an error message quotes. */
const STDERR_TAIL_LINES = 5;

/**
 * The end of what a failed `execFile` of a helper (python, pip) wrote to stderr, or the error itself when it carries
 * no stderr: its last lines, trimmed at both ends, so that a message of a few lines loses its leading blank lines
 * and indentation too (what the three places that quote it have always shown).
 */
export function stderrTail(error: unknown): string {
  const output = (error as { stderr?: string }).stderr ?? String(error);
  return tailLines(output.trimStart(), STDERR_TAIL_LINES, 'trimmed').join('\n');
}
