import { Text } from 'ink';
import type { ReactElement } from 'react';
import { cutColumns, displayWidth, plain } from './truncate.js';

/**
 * A line of a screen as data: spans of text with their style. The screens build their content as
 * such lines so that it can be cut to the screen's width exactly (span by span, by columns) before
 * Ink sees it, and so that tests can read it without a terminal.
 */

export type Colour = 'red' | 'green' | 'yellow' | 'blue' | 'magenta' | 'cyan' | 'gray' | 'white';

export interface Span {
  readonly text: string;
  readonly color?: Colour;
  readonly bold?: boolean;
  readonly dim?: boolean;
  readonly inverse?: boolean;
}

export type StyledLine = readonly Span[];

export type SpanStyle = Omit<Span, 'text'>;

/** A line of one span. */
export function line(text: string, style: SpanStyle = {}): StyledLine {
  return [{ text, ...style }];
}

/** Lines of a text that may hold several (a prompt, a log), each cleaned for the terminal. */
export function textLines(text: string, style: SpanStyle = {}, indent = ''): StyledLine[] {
  const trimmed = text.replace(/\n+$/u, '');
  if (trimmed === '') return [];
  return trimmed.split('\n').map((row) => line(`${indent}${plain(row)}`, style));
}

/** The line's text without style. */
export function lineText(styled: StyledLine): string {
  return styled.map((part) => part.text).join('');
}

/** The line cut to `width` columns, the ellipsis taking the style of the span where the cut falls. */
export function fitLine(unsafe: StyledLine, width: number): StyledLine {
  // A line break inside a span would make two rows of one: the layout below would shift.
  const styled = unsafe.some((part) => /[\r\n]/u.test(part.text))
    ? unsafe.map((part) => ({ ...part, text: part.text.replace(/\r?\n|\r/gu, ' ') }))
    : unsafe;
  if (displayWidth(lineText(styled)) <= width) return styled;
  const out: Span[] = [];
  let left = Math.max(0, width - 1);
  for (const part of styled) {
    const partWidth = displayWidth(part.text);
    if (partWidth <= left) {
      out.push(part);
      left -= partWidth;
      continue;
    }
    out.push({ ...part, text: `${cutColumns(part.text, left)}…` });
    break;
  }
  return width <= 0 ? [] : out;
}

/** One line drawn (already cut to width by the caller; `truncate-end` guards against a miscount). */
export function LineView({ styled }: { readonly styled: StyledLine }): ReactElement {
  return (
    <Text wrap="truncate-end">
      {styled.length === 0
        ? ' '
        : styled.map((part, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a part of the line is its place in it
            <Text key={index} color={part.color} bold={part.bold} dimColor={part.dim} inverse={part.inverse}>
              {part.text}
            </Text>
          ))}
    </Text>
  );
}
