import { Text, useInput } from 'ink';
import { render } from 'ink-testing-library';
import type { ReactElement } from 'react';
import { describe, expect, it } from 'vitest';
import { KEY, tick } from '../testing/ink-test-support.js';
import { useSyncedState } from './synced-state.js';

function Counter({ onEnter }: { readonly onEnter: (count: number) => void }): ReactElement {
  const [count, read, update] = useSyncedState(0);
  useInput((input, key) => {
    if (key.return) onEnter(read());
    else if (input === '+') update((current) => current + 1);
  });
  return <Text>{count}</Text>;
}

describe('useSyncedState', () => {
  it('gives a handler the state left by the key just before, rendered or not', async () => {
    const seen: number[] = [];
    const { lastFrame, stdin } = render(<Counter onEnter={(count) => seen.push(count)} />);
    // No wait between the keys: the second comes before React renders the first.
    stdin.write('+');
    stdin.write('+');
    stdin.write(KEY.enter);
    await tick();
    expect(seen).toEqual([2]);
    expect(lastFrame()).toBe('2');
  });
});
