/** An error as the message line shows it: its message's first line (a stack or a command's output follows). */
export function errorLine(error: unknown): string {
  return error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error);
}
