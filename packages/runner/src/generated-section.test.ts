import { describe, expect, it } from 'vitest';
import { type GeneratedSection, SectionMarkerError, withSection } from './generated-section.js';

const SECTION: GeneratedSection = { file: 'notes.md', start: '<!-- s -->', end: '<!-- e -->', lines: () => ['new'] };

describe('withSection', () => {
  it('writes the lines between the markers and leaves the rest byte for byte', () => {
    const text = 'before\n<!-- s -->\nold\nolder\n<!-- e -->\nafter\n';
    expect(withSection(text, SECTION)).toBe('before\n<!-- s -->\nnew\n<!-- e -->\nafter\n');
    expect(withSection('<!-- s -->\n<!-- e -->', SECTION)).toBe('<!-- s -->\nnew\n<!-- e -->');
  });

  it('refuses a file without both markers, naming the file and the missing line', () => {
    expect(() => withSection('<!-- e -->\n<!-- s -->\n', SECTION)).toThrow(SectionMarkerError);
    expect(() => withSection('text\n', SECTION)).toThrow('notes.md: no line "<!-- s -->"');
    expect(() => withSection('<!-- s -->\n', SECTION)).toThrow('notes.md: no line "<!-- e -->"');
  });
});
