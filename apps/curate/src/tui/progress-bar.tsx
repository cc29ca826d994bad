import { Text } from 'ink';
import type React from 'react';

/** A bar of `width` cells, filled in proportion; an unknown total shows an empty bar, not a guess. */
export function ProgressBar(props: {
  readonly done: number;
  readonly total: number;
  readonly width: number;
  readonly color?: string;
}): React.JSX.Element {
  const width = Math.max(1, props.width);
  const ratio = props.total > 0 ? Math.min(1, Math.max(0, props.done / props.total)) : 0;
  const filled = Math.round(ratio * width);
  return (
    <Text>
      <Text color={props.color ?? 'green'}>{'█'.repeat(filled)}</Text>
      <Text dimColor>{'░'.repeat(width - filled)}</Text>
    </Text>
  );
}
