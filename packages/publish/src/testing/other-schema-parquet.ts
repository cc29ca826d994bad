import { tableFromArrays, tableToIPC } from 'apache-arrow';
import { Table as WasmTable, writeParquet } from 'parquet-wasm';

/** Test support: a real Parquet file of other columns than a release's, written as release-table.ts writes one. */

/** lt-asset/REPOCOD's columns, two rows of them: what its Hub dataset holds, and what a release does not. */
export const REPOCOD_FORM_COLUMNS: Readonly<Record<string, readonly string[]>> = {
  repository: ['seaborn', 'flask'],
  repo_id: ['28', '3'],
  target_module_path: ['seaborn/axisgrid.py', 'src/flask/app.py'],
  prompt: ['def __init__(self, data):', 'def run(self, host=None):'],
  full_function: ['def __init__(self, data):\n    self.data = data\n', 'def run(self, host=None):\n    pass\n'],
  function_name: ['axisgrid.PairGrid.__init__', 'Flask.run'],
  relevant_test_path: ['tests/test_axisgrid.py', 'tests/test_basic.py'],
};

/** The bytes of a Parquet file with these string columns (every column as long as the first). */
export function otherSchemaParquet(columns: Readonly<Record<string, readonly string[]>>): Uint8Array {
  const table = tableFromArrays(
    Object.fromEntries(Object.entries(columns).map(([name, values]) => [name, [...values]])),
  );
  return writeParquet(WasmTable.fromIPCStream(tableToIPC(table, 'stream')));
}
