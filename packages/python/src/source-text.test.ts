import { describe, expect, it } from 'vitest';
import { decodePythonSource, sliceLines, splitLinesKeepingEndings } from './source-text.js';

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

describe('decodePythonSource', () => {
  it('decodes UTF-8 and drops a BOM', () => {
    const withBom = new Uint8Array([0xef, 0xbb, 0xbf, ...bytes('x = "é"\n')]);
    expect(decodePythonSource(withBom, 'a.py')).toEqual({ ok: true, text: 'x = "é"\n' });
  });

  it('skips latin-1 bytes with a message naming the file', () => {
    const outcome = decodePythonSource(new Uint8Array([0x78, 0x3d, 0x27, 0xe9, 0x27, 0x0a]), 'pkg/latin.py');
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) {
      expect(outcome.issue.kind).toBe('not-utf8');
      expect(outcome.issue.message).toContain('pkg/latin.py');
    }
  });

  it('skips files with NUL bytes as binary', () => {
    const outcome = decodePythonSource(new Uint8Array([0x78, 0x00, 0x79]), 'blob.py');
    expect(outcome.ok ? null : outcome.issue.kind).toBe('binary');
  });
});

describe('splitLinesKeepingEndings', () => {
  it('keeps LF and CRLF endings and a last line without one', () => {
    expect(splitLinesKeepingEndings('a\r\nb\n\nc')).toEqual(['a\r\n', 'b\n', '\n', 'c']);
    expect(splitLinesKeepingEndings('')).toEqual([]);
  });

  it('slices 1-based inclusive ranges back to the exact text', () => {
    const lines = splitLinesKeepingEndings('one\r\ntwo\nthree\n');
    expect(sliceLines(lines, 1, 2)).toBe('one\r\ntwo\n');
    expect(sliceLines(lines, 3, 2)).toBe('');
  });
});
