import type { ValidationEntry } from '@repocod/pipeline';
import { Box, useInput } from 'ink';
import { type ReactElement, useEffect, useMemo, useRef, useState } from 'react';
import { ScrollView, useScrollOffset } from './scroll-view.js';
import { STATUS_COLOURS, STATUS_MARKS } from './status-colours.js';
import type { StyledLine } from './styled-line.js';
import { failureLines, type LogState, logCheck } from './validation-lines.js';

/**
 * One task's validation opened from the validation screen: its checks with the tests concerned, and
 * the log of the check that failed. A check keeps only the end of pytest's output; `f` loads the
 * run's whole log from the catalog.
 */

export interface FailureViewProps {
  readonly entry: ValidationEntry;
  readonly width: number;
  readonly height: number;
  readonly active: boolean;
  readonly loadLog: (runId: string) => Promise<string | null>;
  readonly onBack: () => void;
}

function titleLine(entry: ValidationEntry): StyledLine {
  return [
    { text: 'Esc ‹ ', dim: true },
    { text: entry.instanceId, bold: true },
    { text: '  ' },
    { text: `${STATUS_MARKS[entry.status]} ${entry.status}`, color: STATUS_COLOURS[entry.status] },
  ];
}

export function FailureView({ entry, width, height, active, loadLog, onBack }: FailureViewProps): ReactElement {
  const [log, setLog] = useState<LogState>({ kind: 'tail' });
  const { lines, logStart } = useMemo(() => failureLines(entry, log), [entry, log]);
  // The title takes the first row.
  const body = Math.max(1, height - 1);
  const { offset, scrollTo } = useScrollOffset({ count: lines.length, height: body, active });
  // A log that arrives after the view closed has nowhere to go.
  const open = useRef(true);
  useEffect(
    () => () => {
      open.current = false;
    },
    [],
  );

  // Set at once, where the state is set only for the next render: a second f typed before that render
  // (a fast typist, a busy machine) would otherwise load the log twice.
  const requested = useRef(false);

  useInput(
    (input, key) => {
      if (key.escape) {
        onBack();
        return;
      }
      const runId = logCheck(entry)?.runIds[0];
      if (input !== 'f' || runId === undefined || log.kind !== 'tail' || requested.current) return;
      requested.current = true;
      setLog({ kind: 'loading', runId });
      loadLog(runId).then(
        (text) => {
          if (!open.current) return;
          setLog(text === null ? { kind: 'missing', runId } : { kind: 'whole', runId, text });
          // Show the log from its start: the end was in view already.
          if (text !== null) scrollTo(logStart);
        },
        (error: unknown) => {
          if (open.current)
            setLog({ kind: 'error', runId, message: error instanceof Error ? error.message : String(error) });
        },
      );
    },
    { isActive: active },
  );

  return (
    <Box flexDirection="column" width={width} height={height}>
      <ScrollView lines={[titleLine(entry)]} width={width} height={1} offset={0} />
      <ScrollView lines={lines} width={width} height={body} offset={offset} />
    </Box>
  );
}
