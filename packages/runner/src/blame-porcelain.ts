import { RepocodError } from '@repocod/core';

/** One line of a file as `git blame --porcelain` (or `--line-porcelain`) attributes it. */
export interface BlameLine {
  /** The line's number in the blamed file, 1-based. */
  readonly line: number;
  /** The commit that last wrote the line, as far as git's options followed it. */
  readonly commit: string;
  /** The commit's author time, in seconds since the epoch: when the line was written. */
  readonly authorTime: number;
  /** The commit's committer time, in seconds since the epoch: when it entered the history. */
  readonly committerTime: number;
  /** Where the line stood in `commit`: another file or line than the blamed one when git followed a move or copy. */
  readonly originalFile: string;
  readonly originalLine: number;
  /**
   * Git marks a boundary commit: the root commit (blame runs without `--root`), or the edge of a shallow clone,
   * where the line may be older than the commit and its dates are only an upper bound.
   */
  readonly boundary: boolean;
  /** The line's text without its newline (a CRLF file's `\r` stays). */
  readonly text: string;
}

/** What the porcelain says of a commit once (`--porcelain`) or with every line (`--line-porcelain`). */
interface CommitDetails {
  authorTime?: number;
  committerTime?: number;
  boundary: boolean;
  filename?: string;
}

/** `<sha> <original line> <final line> [<lines in the group>]`: SHA-1 or SHA-256 object names. */
const HEADER = /^([0-9a-f]{40}|[0-9a-f]{64}) (\d+) (\d+)(?: \d+)?$/;

/**
 * The lines of `git blame --porcelain` or `--line-porcelain` output, in the order git gives them. The plain porcelain
 * states a commit's details only with its first line (and its file name again only when the commit touched several
 * paths), so the details are remembered by commit and each line takes its commit's. A last header whose content line
 * is missing (output trimmed of its trailing whitespace, where the last line was blank) gives a line of text ``.
 * Anything else out of shape is a parse-error naming the output line.
 */
export function parseBlamePorcelain(output: string): BlameLine[] {
  const commits = new Map<string, CommitDetails>();
  const lines: BlameLine[] = [];
  let pending: { commit: string; originalLine: number; line: number; filename?: string } | null = null;
  const finish = (text: string, at: number): void => {
    if (pending === null) throw malformed(at, 'a content line (starting with a tab) before any header');
    const details = commits.get(pending.commit) as CommitDetails;
    const filename = pending.filename ?? details.filename;
    if (details.authorTime === undefined || details.committerTime === undefined || filename === undefined)
      throw malformed(at, `commit ${pending.commit} has no author-time, committer-time or filename before its line`);
    lines.push({
      line: pending.line,
      commit: pending.commit,
      authorTime: details.authorTime,
      committerTime: details.committerTime,
      originalFile: filename,
      originalLine: pending.originalLine,
      boundary: details.boundary,
      text,
    });
    pending = null;
  };
  const rows = output.split('\n');
  if (rows.at(-1) === '') rows.pop();
  for (const [index, row] of rows.entries()) {
    const at = index + 1;
    if (row.startsWith('\t')) {
      finish(row.slice(1), at);
      continue;
    }
    if (pending === null) {
      const header = HEADER.exec(row);
      if (header === null) throw malformed(at, `${JSON.stringify(row)} where a header \`<sha> <line> <line>\` was due`);
      const commit = header[1] as string;
      if (!commits.has(commit)) commits.set(commit, { boundary: false });
      pending = { commit, originalLine: Number(header[2]), line: Number(header[3]) };
      continue;
    }
    const details = commits.get(pending.commit) as CommitDetails;
    const space = row.indexOf(' ');
    const key = space === -1 ? row : row.slice(0, space);
    const value = space === -1 ? '' : row.slice(space + 1);
    if (key === 'author-time') details.authorTime = epochSeconds(value, at);
    else if (key === 'committer-time') details.committerTime = epochSeconds(value, at);
    else if (key === 'boundary') details.boundary = true;
    else if (key === 'filename') {
      details.filename = unquoteGitPath(value);
      pending.filename = details.filename;
    }
  }
  if (pending !== null) finish('', rows.length);
  return lines;
}

function epochSeconds(value: string, at: number): number {
  if (!/^-?\d+$/.test(value)) throw malformed(at, `the time ${JSON.stringify(value)} is not seconds since the epoch`);
  return Number(value);
}

function malformed(at: number, what: string): RepocodError {
  return new RepocodError('parse-error', `git blame's porcelain output, line ${at}: ${what}`);
}

const ESCAPES: Readonly<Record<string, number>> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, '\\': 92 };

/**
 * A path as git writes it: as is, or in double quotes with C escapes (`\t`, `\"`, `\\`, and octal bytes for what
 * core.quotePath quotes) when it holds such characters; the bytes are UTF-8.
 */
export function unquoteGitPath(written: string): string {
  if (!(written.startsWith('"') && written.endsWith('"') && written.length >= 2)) return written;
  const bytes: number[] = [];
  const inner = written.slice(1, -1);
  for (let index = 0; index < inner.length; index++) {
    const char = inner[index] as string;
    if (char !== '\\') {
      bytes.push(...Buffer.from(char, 'utf8'));
      continue;
    }
    const octal = /^[0-7]{3}/.exec(inner.slice(index + 1));
    if (octal !== null) {
      bytes.push(Number.parseInt(octal[0], 8));
      index += 3;
      continue;
    }
    const next = inner[index + 1] ?? '';
    bytes.push(ESCAPES[next] ?? next.charCodeAt(0));
    index += 1;
  }
  return Buffer.from(bytes).toString('utf8');
}
