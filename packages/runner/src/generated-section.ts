/**
 * A part of a hand-written file that a program writes: the lines from a start marker to an end marker
 * (both kept). The rest of the file is left as it is, byte for byte.
 */
export interface GeneratedSection {
  /** The file, relative to the project root. */
  readonly file: string;
  /** The whole line that opens the section, and the one that closes it. */
  readonly start: string;
  readonly end: string;
  /** The lines between the markers. */
  readonly lines: () => readonly string[];
}

export class SectionMarkerError extends Error {
  constructor(
    readonly file: string,
    readonly marker: string,
  ) {
    super(`${file}: no line "${marker}" (the generated section must sit between its start and end lines)`);
    this.name = 'SectionMarkerError';
  }
}

/** The file's text with the section's lines written anew between its markers. */
export function withSection(text: string, section: GeneratedSection): string {
  const lines = text.split('\n');
  const start = lines.indexOf(section.start);
  if (start < 0) throw new SectionMarkerError(section.file, section.start);
  const end = lines.indexOf(section.end, start + 1);
  if (end < 0) throw new SectionMarkerError(section.file, section.end);
  return [...lines.slice(0, start + 1), ...section.lines(), ...lines.slice(end)].join('\n');
}
