import type { ReferenceForm, ReferenceProblem, ReferenceRecord, ReferenceRow } from './reference-row.js';

export interface ReadReferenceRows {
  /** The form of the first readable record; every row is of it (a record of another form is a problem). */
  readonly form: ReferenceForm | null;
  readonly rows: readonly ReferenceRow[];
  /** One per record that could not be read, in the records' order. */
  readonly problems: readonly ReferenceProblem[];
}

/**
 * A record's form from its shape: a string is a name; `instance_id` or `pre_patches` makes a seed row;
 * `function_name` a REPOCOD row.
 */
export function formOfRecord(record: ReferenceRecord): ReferenceForm | null {
  if (typeof record.value === 'string') return 'names';
  if (record.value === null || typeof record.value !== 'object' || Array.isArray(record.value)) return null;
  const row = record.value as Record<string, unknown>;
  if ('instance_id' in row || 'pre_patches' in row) return 'seed';
  if ('function_name' in row) return 'repocod';
  return null;
}

/**
 * Reads records into rows of one form. A record that is of no form, of another form than the first
 * one, or lacks a field its form needs is a problem named with where it is and the field; the other
 * records are still read, and their indexes stay the records' positions, so a problem row keeps its
 * place.
 */
export function readReferenceRows(records: readonly ReferenceRecord[]): ReadReferenceRows {
  let form: ReferenceForm | null = null;
  const rows: ReferenceRow[] = [];
  const problems: ReferenceProblem[] = [];
  for (const [position, record] of records.entries()) {
    const index = position + 1;
    if (record.unreadable !== undefined) {
      problems.push({ index, where: record.where, field: null, message: record.unreadable });
      continue;
    }
    const found = formOfRecord(record);
    if (found === null) {
      problems.push({
        index,
        where: record.where,
        field: null,
        message:
          'is of no known form: a REPOCOD row has function_name (and repository), a seed row instance_id and ' +
          'pre_patches, a names entry is a function name',
      });
      continue;
    }
    form ??= found;
    if (found !== form) {
      problems.push({
        index,
        where: record.where,
        field: null,
        message: `is a ${found} row in a reference of ${form} rows (the first row's form); split the source`,
      });
      continue;
    }
    const read = ROW_READERS[found](record, index);
    if ('message' in read) problems.push(read);
    else rows.push(read);
  }
  return { form, rows, problems };
}

type RowReader = (record: ReferenceRecord, index: number) => ReferenceRow | ReferenceProblem;

const ROW_READERS: Record<ReferenceForm, RowReader> = {
  names: (record, index) => {
    const name = (record.value as string).trim();
    if (record.repository === undefined)
      return problem(
        record,
        null,
        'a function name must sit under its repository ({"repository": {"repo_id": name}})',
        index,
      );
    if (name === '') return problem(record, 'function_name', 'is empty', index);
    return {
      ...blankReferenceRow(index, record.where, 'names', record.repository),
      repoId: record.repoId ?? null,
      functionName: name,
    };
  },
  repocod: (record, index) => {
    const fields = new Fields(record, index);
    const repository = fields.text('repository') ?? record.repository ?? null;
    if (repository === null)
      return (
        fields.problem ?? problem(record, 'repository', 'is missing (and the row is not keyed by repository)', index)
      );
    const row: ReferenceRow = {
      ...blankReferenceRow(index, record.where, 'repocod', repository),
      repoId: fields.id('repo_id') ?? record.repoId ?? null,
      functionName: fields.required('function_name'),
      file: fields.text('target_module_path'),
      prompt: fields.lines('prompt'),
      fullFunction: fields.lines('full_function'),
      relevantTests: fields.list('relevant_test_path'),
    };
    return fields.problem ?? row;
  },
  seed: (record, index) => {
    const fields = new Fields(record, index);
    const repository = fields.required('repo');
    const row: ReferenceRow = {
      ...blankReferenceRow(index, record.where, 'seed', repository ?? ''),
      instanceId: fields.required('instance_id'),
      baseCommit: fields.text('base_commit'),
      preCode: fields.required('pre_patches', 'code'),
      goldCode: fields.text('gold_patches', 'code'),
      preTest: fields.text('pre_patches', 'test'),
      failToPass: fields.list('evaluation', 'FAIL_TO_PASS'),
    };
    return fields.problem ?? row;
  },
};

/** A row of a form with every field its form may leave out null: what a reader fills in. */
export function blankReferenceRow(index: number, where: string, form: ReferenceForm, repository: string): ReferenceRow {
  return {
    index,
    where,
    form,
    repository,
    repoId: null,
    functionName: null,
    file: null,
    prompt: null,
    fullFunction: null,
    instanceId: null,
    baseCommit: null,
    preCode: null,
    goldCode: null,
    preTest: null,
    failToPass: null,
    relevantTests: null,
  };
}

function problem(record: ReferenceRecord, field: string | null, message: string, index: number): ReferenceProblem {
  return { index, where: record.where, field, message };
}

/** A row object's fields read by type; the first field of the wrong type is kept as the row's problem. */
class Fields {
  problem: ReferenceProblem | undefined;
  private readonly row: Record<string, unknown>;

  constructor(
    private readonly record: ReferenceRecord,
    private readonly index: number,
  ) {
    this.row = record.value as Record<string, unknown>;
  }

  private value(path: readonly string[]): unknown {
    let value: unknown = this.row;
    for (const key of path) {
      if (value === null || typeof value !== 'object') return undefined;
      value = (value as Record<string, unknown>)[key];
    }
    return value;
  }

  private fail(path: readonly string[], message: string): null {
    this.problem ??= problem(this.record, path.join('.'), message, this.index);
    return null;
  }

  text(...path: string[]): string | null {
    const value = this.value(path);
    if (value === undefined || value === null) return null;
    if (typeof value !== 'string') return this.fail(path, `is not a string (got ${describe(value)})`);
    return value;
  }

  required(...path: string[]): string | null {
    const value = this.text(...path);
    if (value === null || value.trim() === '') return this.fail(path, 'is missing or empty');
    return value;
  }

  /** REPOCOD's repo_id, a number in some forms and a string in others. */
  id(...path: string[]): string | null {
    const value = this.value(path);
    if (typeof value === 'number' && Number.isInteger(value)) return String(value);
    return this.text(...path);
  }

  /** A text given as one string or, as REPOCOD's evaluator keeps prompts, as a list of lines with their endings. */
  lines(...path: string[]): string | null {
    const value = this.value(path);
    if (Array.isArray(value) && value.every((line) => typeof line === 'string')) return value.join('');
    return this.text(...path);
  }

  list(...path: string[]): string[] | null {
    const value = this.value(path);
    if (value === undefined || value === null) return null;
    if (typeof value === 'string') return [value];
    if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return [...value];
    return this.fail(path, `is not a list of strings (got ${describe(value)})`);
  }
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return 'a list';
  return value === null ? 'null' : typeof value;
}
