/**
 * Python's method resolution order (C3) for a class with the given bases, each with its own MRO
 * already computed. Classes are compared by key.
 *
 * The index drops bases it cannot resolve (third-party or computed ones), which can make a hierarchy
 * that Python accepts look inconsistent; then the order falls back to a left-to-right depth-first
 * walk without repeats, which agrees with C3 on every hierarchy without diamonds.
 */
export function linearize<T>(
  head: T,
  bases: readonly T[],
  mroOf: (base: T) => readonly T[],
  keyOf: (item: T) => string,
): T[] {
  const merged = c3Merge([...bases.map((base) => [...mroOf(base)]), [...bases]], keyOf);
  if (merged !== null) return [head, ...merged];
  const seen = new Set([keyOf(head)]);
  const order = [head];
  for (const item of bases.flatMap((base) => mroOf(base))) {
    if (seen.has(keyOf(item))) continue;
    seen.add(keyOf(item));
    order.push(item);
  }
  return order;
}

/** C3's merge: repeatedly take the first head that is in no other list's tail; null when none is. */
function c3Merge<T>(sequences: T[][], keyOf: (item: T) => string): T[] | null {
  const lists = sequences.map((sequence) => sequence.map((item) => ({ item, key: keyOf(item) })));
  const result: T[] = [];
  for (;;) {
    const pending = lists.filter((list) => list.length > 0);
    if (pending.length === 0) return result;
    const candidate = pending
      .map((list) => list[0])
      .find(
        (head) => head !== undefined && !pending.some((list) => list.slice(1).some((entry) => entry.key === head.key)),
      );
    if (candidate === undefined) return null;
    result.push(candidate.item);
    for (const list of pending) {
      if (list[0]?.key === candidate.key) list.shift();
    }
  }
}
