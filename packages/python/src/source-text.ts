import type { FileIssue } from '@repocod/core';

export type DecodedSource =
  | { readonly ok: true; readonly text: string }
  | { readonly ok: false; readonly issue: FileIssue };

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/**
 * Python source must be text we can slice exactly: a NUL byte means a binary file, and bytes that are
 * not UTF-8 (a PEP 263 latin-1 file, say) are skipped rather than guessed at, since a wrong guess
 * would silently change prompts and token counts. A UTF-8 BOM is dropped, as Python does.
 */
export function decodePythonSource(bytes: Uint8Array, file: string): DecodedSource {
  if (bytes.includes(0)) {
    return {
      ok: false,
      issue: { file, kind: 'binary', lines: [], message: `${file}: contains NUL bytes, skipped as binary` },
    };
  }
  try {
    return { ok: true, text: utf8.decode(bytes) };
  } catch {
    return {
      ok: false,
      issue: {
        file,
        kind: 'not-utf8',
        lines: [],
        message: `${file}: not valid UTF-8, skipped (re-encode it as UTF-8 to include it)`,
      },
    };
  }
}

/** Lines with their own endings (`\n` or `\r\n`) kept, so that slices reproduce the file's bytes. */
export function splitLinesKeepingEndings(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

/** Lines `start`..`end` (1-based, inclusive) joined back; empty when the range is empty. */
export function sliceLines(lines: readonly string[], start: number, end: number): string {
  return end < start ? '' : lines.slice(start - 1, end).join('');
}
