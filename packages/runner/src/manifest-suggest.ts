/**
 * The candidate a mistyped word was most likely meant to be, or null when none is close. Used so that
 * "unknown field base_comit" and "no repository sckit-learn" point at the right spelling.
 */
export function closestName(word: string, candidates: readonly string[]): string | null {
  const lower = word.toLowerCase();
  // A shortened name ("repos", "base") is as common a slip as a typo.
  const extended =
    lower.length >= 3 ? candidates.find((candidate) => candidate.toLowerCase().startsWith(lower)) : undefined;
  if (extended !== undefined) return extended;
  const limit = Math.max(1, Math.floor(word.length / 3));
  let best: string | null = null;
  let bestDistance = limit + 1;
  for (const candidate of candidates) {
    const distance = editDistance(lower, candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** Levenshtein distance: insertions, deletions and substitutions each cost 1. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/** ` (did you mean "x"?)` or nothing, ready to append to a message. */
export function didYouMean(word: string, candidates: readonly string[]): string {
  const closest = closestName(word, candidates);
  return closest === null ? '' : ` (did you mean "${closest}"?)`;
}
