import { useState } from 'react';

/** What a screen reads from the session as it opens: null until the first read ends. */
export interface Loaded<T> {
  readonly value: T | null;
  /** Reads it (again); an error goes to `report`, and the last value stays. */
  readonly load: () => void;
}

export function useLoaded<T>(read: () => Promise<T>, report: (error: unknown) => void): Loaded<T> {
  const [value, setValue] = useState<T | null>(null);
  return {
    value,
    load: () => {
      read()
        .then((found) => setValue(() => found))
        .catch(report);
    },
  };
}
