import { Box, Text } from 'ink';
import React from 'react';

/** A key and what it does, as every screen lists them for the help bar. */
export interface KeyHelp {
  readonly key: string;
  readonly action: string;
}

/** The screen's keys, then the global ones, on one line cut to the width: the curator always sees what to press. */
export function HelpBar(props: { readonly keys: readonly KeyHelp[]; readonly width: number }): React.JSX.Element {
  return (
    <Box width={props.width}>
      <Text wrap="truncate-end">
        {props.keys.map((help, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the keys are a fixed list, drawn in order
          <React.Fragment key={`${help.key}-${index}`}>
            {index > 0 ? <Text dimColor> · </Text> : null}
            <Text bold color="cyan">
              {help.key}
            </Text>
            <Text> {help.action}</Text>
          </React.Fragment>
        ))}
      </Text>
    </Box>
  );
}
