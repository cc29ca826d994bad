import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FileIssue } from '@repocod/core';
import { contentHash } from '@repocod/core';

export interface ReadSource {
  readonly file: string;
  readonly bytes: Uint8Array;
  readonly contentHash: string;
}

export interface ReadSources {
  readonly sources: ReadSource[];
  readonly unreadable: FileIssue[];
}

/** Reads and hashes the files; one that cannot be read is reported, not fatal to the others. */
export function readSources(root: string, files: readonly string[]): ReadSources {
  const sources: ReadSource[] = [];
  const unreadable: FileIssue[] = [];
  for (const file of files) {
    try {
      const bytes = readFileSync(join(root, file));
      sources.push({ file, bytes, contentHash: contentHash(bytes) });
    } catch (error) {
      const reason = (error as NodeJS.ErrnoException).code ?? String(error);
      unreadable.push({
        file,
        kind: 'unreadable',
        lines: [],
        message: `${file}: cannot be read (${reason}); check that it is a readable file`,
      });
    }
  }
  return { sources, unreadable };
}
