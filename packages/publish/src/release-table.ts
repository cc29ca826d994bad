import { makeData, RecordBatch, Struct, Table, tableToIPC, vectorFromArray } from 'apache-arrow';
import { Compression, Table as WasmTable, WriterPropertiesBuilder, writeParquet } from 'parquet-wasm';
import { RELEASE_SCHEMA } from './seed-schema.js';

export interface CodeAndTest {
  readonly code: string;
  readonly test: string;
}

/** One row of a release: the seed's columns, minus the ones that are always null. */
export interface ReleaseRow {
  readonly instance_id: string;
  readonly version: string;
  readonly gold_patches: CodeAndTest;
  readonly pre_patches: CodeAndTest;
  readonly repo: string;
  readonly base_commit: string;
  readonly base_commit_timestamp: string;
  readonly problem_statement: CodeAndTest;
  readonly environment_setup_commit: string;
  readonly FAIL_TO_PASS: readonly string[];
}

/** The rows as an Arrow table of exactly RELEASE_SCHEMA, in the order given. */
export function releaseTable(rows: readonly ReleaseRow[]): Table {
  const columns: Record<string, unknown[]> = {
    instance_id: rows.map((row) => row.instance_id),
    version: rows.map((row) => row.version),
    gold_patches: rows.map((row) => ({ code: row.gold_patches.code, test: row.gold_patches.test })),
    test_patch: rows.map(() => null),
    pre_patches: rows.map((row) => ({ code: row.pre_patches.code, test: row.pre_patches.test })),
    pre_scripts: rows.map(() => null),
    repo: rows.map((row) => row.repo),
    base_commit: rows.map((row) => row.base_commit),
    base_commit_timestamp: rows.map((row) => row.base_commit_timestamp),
    hints_text: rows.map(() => null),
    created_at: rows.map(() => null),
    problem_statement: rows.map((row) => ({ code: row.problem_statement.code, test: row.problem_statement.test })),
    environment_setup_commit: rows.map((row) => row.environment_setup_commit),
    evaluation: rows.map((row) => ({ FAIL_TO_PASS: [...row.FAIL_TO_PASS], PASS_TO_PASS: null })),
  };
  const children = RELEASE_SCHEMA.fields.map((field) => {
    const vector = vectorFromArray(columns[field.name] ?? [], field.type);
    const data = vector.data[0];
    if (data === undefined || vector.data.length !== 1) throw new Error(`${field.name}: expected one chunk`);
    return data;
  });
  const batch = new RecordBatch(
    RELEASE_SCHEMA,
    makeData({ type: new Struct(RELEASE_SCHEMA.fields), length: rows.length, nullCount: 0, children }),
  );
  return new Table([batch]);
}

/** The table as Parquet bytes, ZSTD-compressed, written by parquet-wasm (arrow-rs). */
export function releaseParquet(table: Table): Uint8Array {
  const wasmTable = WasmTable.fromIPCStream(tableToIPC(table, 'stream'));
  const properties = new WriterPropertiesBuilder().setCompression(Compression.ZSTD).build();
  return writeParquet(wasmTable, properties);
}
