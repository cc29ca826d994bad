import { describe, expect, it } from 'vitest';
import { tailLines } from './tail-lines.js';

/** Texts with the ends the readings differ on: line breaks, '\r\n', blank last lines, spaces, nothing at all. */
const SAMPLES = ['', '\n', ' \n', 'only', 'a\nb\nc', 'a\nb\nc\n', 'a\r\nb\r\nc\r\n', 'a\n\n\n', 'x  \n\ty \n \n', '\r'];

describe('tailLines', () => {
  it('drops the final newline and carriage returns, and copes with short texts', () => {
    expect(tailLines('a\r\nb\nc\n', 2)).toEqual(['b', 'c']);
    expect(tailLines('only', 20)).toEqual(['only']);
    expect(tailLines('', 20)).toEqual([]);
  });

  it('reads a file: a final line break ends the last line, a second one leaves an empty line', () => {
    expect(tailLines('a\r\nb\n', 5, 'file')).toEqual(['a', 'b']);
    expect(tailLines('a\n\n', 5)).toEqual(['a', '']);
    expect(tailLines('a  \n', 5)).toEqual(['a  ']);
    expect(tailLines('\n', 5)).toEqual(['']);
  });

  it('trimmed: ends at the last printed line and keeps a carriage return inside', () => {
    expect(tailLines('a\r\nb\n\n', 5, 'trimmed')).toEqual(['a\r', 'b']);
    expect(tailLines('a\nb  \n \n', 1, 'trimmed')).toEqual(['b']);
    expect(tailLines('', 5, 'trimmed')).toEqual(['']);
    expect(tailLines(' \n\t', 5, 'trimmed')).toEqual(['']);
  });

  it('verbatim: cuts at each newline and nothing else', () => {
    expect(tailLines('a\r\nb\n', 5, 'verbatim')).toEqual(['a\r', 'b', '']);
    expect(tailLines('a\r\nb\n', 2, 'verbatim')).toEqual(['b', '']);
    expect(tailLines('', 5, 'verbatim')).toEqual(['']);
  });

  it('gives every line when there are fewer than count, and none for a count of 0 or less', () => {
    expect(tailLines('a\nb', 10, 'verbatim')).toEqual(['a', 'b']);
    for (const reading of ['file', 'trimmed', 'verbatim'] as const) {
      expect(tailLines('a\nb', 0, reading)).toEqual([]);
      expect(tailLines('a\nb', -1, reading)).toEqual([]);
    }
  });

  it('gives what the inline copies it replaced gave, for any positive count', () => {
    for (const text of SAMPLES)
      for (const count of [1, 2, 3, 5, 15]) {
        expect(tailLines(text, count, 'trimmed')).toEqual(text.trimEnd().split('\n').slice(-count));
        expect(tailLines(text, count, 'verbatim')).toEqual(text.split('\n').slice(-count));
        expect(tailLines(text.trimStart(), count, 'trimmed')).toEqual(text.trim().split('\n').slice(-count));
      }
  });
});
