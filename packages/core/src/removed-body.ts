/**
 * Where a task's code pre patch takes the body away: the file and the range of base lines it removes.
 * A task's pre code patch removes one contiguous range of lines and adds none (everything after the
 * docstring through the function's last line; tasks/src/code-patches.ts), whichever tool wrote it, so
 * the hunks are read for their removed lines alone and any other shape is refused by name.
 */
export interface RemovedBody {
  readonly file: string;
  /** First and last removed line, 1-based, in the base (gold) file's numbering. */
  readonly start: number;
  readonly end: number;
}

export class PrePatchShapeError extends Error {
  constructor(readonly reason: string) {
    super(`the task's code pre patch is not one removed range of lines: ${reason}`);
    this.name = 'PrePatchShapeError';
  }
}

const HUNK_HEADER = /^@@ -(\d+)(?:,(\d+))? \+\d+(?:,\d+)? @@/;

export function removedBody(patch: string): RemovedBody {
  let file: string | null = null;
  let oldLine = 0;
  const removed: number[] = [];
  for (const line of patch.split('\n')) {
    if (line.startsWith('--- ')) {
      const path = line.slice(4).trim();
      const named = path === '/dev/null' ? null : path.replace(/^a\//, '');
      if (file !== null && named !== null && named !== file)
        throw new PrePatchShapeError(`it edits ${file} and ${named}`);
      file = named ?? file;
      continue;
    }
    if (line.startsWith('+++ ') || line.startsWith('diff ') || line.startsWith('index ')) continue;
    const header = HUNK_HEADER.exec(line);
    if (header !== null) {
      oldLine = Number(header[1]);
      continue;
    }
    if (oldLine === 0) continue;
    if (line.startsWith('-')) removed.push(oldLine++);
    else if (line.startsWith('+')) throw new PrePatchShapeError(`it adds a line near line ${oldLine}`);
    else if (line.startsWith(' ')) oldLine++;
  }
  if (file === null) throw new PrePatchShapeError('it names no file (no `--- a/…` line)');
  const start = removed[0];
  const end = removed.at(-1);
  if (start === undefined || end === undefined) throw new PrePatchShapeError('it removes no line');
  if (end - start + 1 !== removed.length) throw new PrePatchShapeError(`its removed lines from ${start} have gaps`);
  return { file, start, end };
}
