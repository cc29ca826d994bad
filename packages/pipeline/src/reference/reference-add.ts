import type { ReferenceStore, StoredReference, StoredReferenceRow } from '@repocod/catalog';
import { contentHash, RepocodError } from '@repocod/core';
import type { ReferenceProblem, ReferenceRecord, ReferenceRow } from '@repocod/reference';
import { readReferenceRows } from '@repocod/reference';

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

export interface AddReferenceInput {
  readonly name: string;
  /** As the user gave it, for the catalog and messages. */
  readonly source: string;
  readonly revision: string | null;
  readonly config: string | null;
  readonly records: readonly ReferenceRecord[];
}

export interface AddedReference {
  readonly reference: StoredReference;
  readonly rows: readonly ReferenceRow[];
  readonly problems: readonly ReferenceProblem[];
  /** The reference this one replaced (same name), or null. */
  readonly replaced: StoredReference | null;
}

/**
 * Stores a reference: every record as given, each bad one with its problem (nothing of the source is
 * lost, and `reference show` names them again), under a hash of the records' content, so the same rows
 * added again from another path are known to be the same. A source none of whose records is a row is
 * refused, naming its first problems.
 */
export async function addReference(store: ReferenceStore, input: AddReferenceInput): Promise<AddedReference> {
  if (!NAME.test(input.name))
    throw new RepocodError(
      'usage',
      `reference name ${JSON.stringify(input.name)}: use letters, digits, '.', '_' or '-' (such as repocod-lite-1.0)`,
    );
  const read = readReferenceRows(input.records);
  if (read.rows.length === 0) {
    const shown = read.problems.slice(0, 5).map(formatReferenceProblem);
    throw new RepocodError(
      'config-invalid',
      `${input.source}: no row of a known form (${input.records.length} record(s))${
        shown.length > 0 ? `:\n  ${shown.join('\n  ')}` : ''
      }`,
    );
  }
  const byIndex = new Map(read.problems.map((problem) => [problem.index, problem]));
  const stored: StoredReferenceRow[] = input.records.map((record, position) => {
    const problem = byIndex.get(position + 1);
    return {
      rowNumber: position + 1,
      location: record.where,
      repository: record.repository ?? null,
      repoId: record.repoId ?? null,
      fields: JSON.stringify(record.value ?? null),
      problem: problem === undefined ? null : JSON.stringify({ field: problem.field, message: problem.message }),
    };
  });
  const reference: StoredReference = {
    name: input.name,
    source: input.source,
    revision: input.revision,
    config: input.config,
    form: read.form,
    contentHash: contentHash(
      JSON.stringify(input.records.map((record) => [record.repository ?? null, record.repoId ?? null, record.value])),
    ),
    addedAt: new Date(),
  };
  const replaced = await store.reference(input.name);
  await store.saveReference(reference, stored);
  return { reference, rows: read.rows, problems: read.problems, replaced };
}

/** A reference's rows read back from the catalog: the good ones as rows, the bad ones as their problems. */
export async function storedReferenceRows(
  store: ReferenceStore,
  name: string,
): Promise<{
  readonly reference: StoredReference;
  readonly rows: ReferenceRow[];
  readonly problems: ReferenceProblem[];
}> {
  const reference = await store.reference(name);
  if (reference === null) {
    const known = (await store.references()).map((summary) => summary.name);
    throw new RepocodError(
      'usage',
      `no reference ${name} in the catalog (${known.length > 0 ? `it has ${known.join(', ')}` : 'it has none'}); ` +
        `add one ` +
        `with repocod reference add ${name} --from SOURCE`,
    );
  }
  const stored = await store.referenceRows(name);
  const problems: ReferenceProblem[] = [];
  const records: ReferenceRecord[] = [];
  for (const row of stored) {
    if (row.problem !== null) {
      const { field, message } = JSON.parse(row.problem) as { field: string | null; message: string };
      problems.push({ index: row.rowNumber, where: row.location, field, message });
      continue;
    }
    records.push({
      where: row.location,
      value: JSON.parse(row.fields) as unknown,
      ...(row.repository === null ? {} : { repository: row.repository }),
      ...(row.repoId === null ? {} : { repoId: row.repoId }),
    });
  }
  const read = readReferenceRows(records);
  // Indexes are the source's positions, not those among the good rows.
  const numbers = stored.filter((row) => row.problem === null).map((row) => row.rowNumber);
  const original = (index: number | null): number | null => (index === null ? null : (numbers[index - 1] ?? index));
  const rows = read.rows.map((row) => ({ ...row, index: original(row.index) ?? row.index }));
  // A row read when it was added may not read now (a reader changed since): named at its own position.
  const again = read.problems.map((problem) => ({ ...problem, index: original(problem.index) }));
  return { reference, rows, problems: [...problems, ...again].sort((a, b) => (a.index ?? 0) - (b.index ?? 0)) };
}

export function formatReferenceProblem(problem: ReferenceProblem): string {
  return `${problem.where}${problem.field === null ? '' : ` (${problem.field})`}: ${problem.message}`;
}
