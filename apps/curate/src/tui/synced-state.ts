import { useCallback, useRef, useState } from 'react';

/**
 * State that a key handler reads as it is now, not as it was at the last render. Ink calls the
 * handler for each key as it arrives; a key that follows another before React has re-rendered (a
 * held arrow, Enter right after a move) would otherwise act on the state before the first key, so
 * Enter would open the row the cursor just left.
 */
export function useSyncedState<T>(initial: T): readonly [T, () => T, (change: (current: T) => T) => void] {
  const [state, setState] = useState(initial);
  const latest = useRef(state);
  const read = useCallback(() => latest.current, []);
  const update = useCallback((change: (current: T) => T) => {
    latest.current = change(latest.current);
    setState(latest.current);
  }, []);
  return [state, read, update];
}
