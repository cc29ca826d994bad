import type { KeyHelp } from './help-bar.js';
import type { TaskDetail } from '@repocod/pipeline';
import { Box, useInput } from 'ink';
import { type ReactElement, useEffect, useMemo } from 'react';
import { clamp } from './navigation.js';
import { lastOffset, ScrollView, useScrollOffset } from './scroll-view.js';
import { line, type Span, type StyledLine } from './styled-line.js';
import { useSyncedState } from './synced-state.js';
import { type TaskSection, taskSections } from './task-sections.js';

/**
 * One task whole, to read before keeping it in a benchmark: a scrollable page of its sections (the
 * task and its level's reasons, the prompt, the patches, the validation) with a row of tabs on top
 * that says which section is in view and jumps to one.
 */

export interface TaskScreenProps {
  readonly detail: TaskDetail;
  readonly width: number;
  readonly height: number;
  readonly active: boolean;
}

export const TASK_KEYS: readonly KeyHelp[] = [
  { key: '↑↓ PgUp PgDn', action: 'scroll' },
  { key: 'Tab/1-4', action: 'sections' },
];

interface Page {
  readonly lines: readonly StyledLine[];
  /** The line where each section starts (its title). */
  readonly starts: readonly number[];
}

function page(sections: readonly TaskSection[], width: number): Page {
  const lines: StyledLine[] = [];
  const starts: number[] = [];
  sections.forEach((section, index) => {
    if (index > 0) lines.push(line(''));
    starts.push(lines.length);
    const title = `── ${index + 1} ${section.title} `;
    lines.push(line(`${title}${'─'.repeat(Math.max(0, width - title.length))}`, { bold: true }));
    lines.push(...section.lines);
  });
  return { lines, starts };
}

interface Jump {
  readonly section: number;
  readonly offset: number;
}

/** The section whose lines are at the top of the window, or the one jumped to while the window stays there. */
function sectionInView(starts: readonly number[], offset: number, jump: Jump | null): number {
  if (jump !== null && jump.offset === offset) return jump.section;
  let current = 0;
  starts.forEach((start, index) => {
    if (start <= offset) current = index;
  });
  return current;
}

function tabsLine(sections: readonly TaskSection[], current: number, instanceId: string): StyledLine {
  // Brackets as well as the inverse, for terminals (and tests) without colours.
  const spans: Span[] = sections.map(
    (section, index): Span =>
      index === current
        ? { text: `[${index + 1} ${section.title}]`, inverse: true, bold: true }
        : { text: ` ${index + 1} ${section.title} `, dim: true },
  );
  spans.push({ text: ' ' });
  spans.push({ text: instanceId, dim: true });
  return spans;
}

export function TaskScreen({ detail, width, height, active }: TaskScreenProps): ReactElement {
  const sections = useMemo(() => taskSections(detail), [detail]);
  const { lines, starts } = useMemo(() => page(sections, width), [sections, width]);
  // The tabs take the first row.
  const body = Math.max(1, height - 1);
  const { offset, read, scrollTo } = useScrollOffset({ count: lines.length, height: body, active });
  // A jump to a short last section cannot bring its title to the top; the tabs still name it.
  const [jump, readJump, updateJump] = useSyncedState<Jump | null>(null);
  const current = sectionInView(starts, offset, jump);

  // biome-ignore lint/correctness/useExhaustiveDependencies: back to the top when another task is shown
  useEffect(() => {
    scrollTo(0);
    updateJump(() => null);
  }, [detail.task.instanceId, scrollTo, updateJump]);

  useInput(
    (input, key) => {
      const count = sections.length;
      const now = sectionInView(starts, read(), readJump());
      const target = key.tab
        ? (key.shift ? now + count - 1 : now + 1) % count
        : /^[1-9]$/u.test(input)
          ? Number(input) - 1
          : null;
      if (target === null || target >= count) return;
      const to = clamp(starts[target] ?? 0, 0, lastOffset(lines.length, body));
      scrollTo(to);
      updateJump(() => ({ section: target, offset: to }));
    },
    { isActive: active },
  );

  return (
    <Box flexDirection="column" width={width} height={height}>
      <ScrollView lines={[tabsLine(sections, current, detail.task.instanceId)]} width={width} height={1} offset={0} />
      <ScrollView lines={lines} width={width} height={body} offset={offset} />
    </Box>
  );
}
