import type { ReferenceRecord } from './reference-row.js';

/**
 * The records of a JSON lines text: one per non-blank line, at `file:line`. A line that is not JSON is
 * a record marked unreadable, its text kept, so it is named with its line and nothing is lost.
 */
export function recordsOfJsonLines(text: string, file: string): ReferenceRecord[] {
  const records: ReferenceRecord[] = [];
  for (const [index, line] of text.split('\n').entries()) {
    if (line.trim() === '') continue;
    const where = `${file}:${index + 1}`;
    try {
      records.push({ where, value: JSON.parse(line) as unknown });
    } catch (error) {
      records.push({ where, value: line, unreadable: `not a JSON value (${(error as Error).message})` });
    }
  }
  return records;
}

/**
 * The records of a JSON document: a list of rows (`file: row N`), or an object keyed by repository whose
 * values are keyed by repo_id (`{"sphinx": {"6": "_make_id"}}`, `{"seaborn": {"28": {…row…}}}`) or lists
 * of function names (`{"sympy": ["sympify"]}`): `file: $["sphinx"]["6"]`. Anything else is a record
 * marked unreadable, named with where it is.
 */
export function recordsOfJson(value: unknown, file: string): ReferenceRecord[] {
  if (Array.isArray(value)) return value.map((row, index) => ({ where: `${file}: row ${index + 1}`, value: row }));
  if (value === null || typeof value !== 'object')
    return [
      {
        where: file,
        value,
        unreadable:
          'is neither a list of rows nor an object keyed by repository (REPOCOD\'s {"repository": {"repo_id": …}})',
      },
    ];
  const records: ReferenceRecord[] = [];
  for (const [repository, entries] of Object.entries(value as Record<string, unknown>)) {
    const at = `${file}: $[${JSON.stringify(repository)}]`;
    if (Array.isArray(entries)) {
      for (const [index, entry] of entries.entries())
        records.push({ where: `${at}[${index}]`, value: entry, repository });
    } else if (entries !== null && typeof entries === 'object') {
      for (const [repoId, entry] of Object.entries(entries as Record<string, unknown>))
        records.push({ where: `${at}[${JSON.stringify(repoId)}]`, value: entry, repository, repoId });
    } else {
      records.push({
        where: at,
        value: entries,
        repository,
        unreadable: `is neither an object keyed by repo_id nor a list of function names (repository ${repository})`,
      });
    }
  }
  return records;
}
