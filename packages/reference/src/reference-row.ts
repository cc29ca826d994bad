/**
 * The forms a published task list comes in, each read into one ReferenceRow:
 *
 * - `repocod`: REPOCOD's own rows (the `lt-asset/REPOCOD` dataset, its evaluator's `ref_dataset.json`):
 *   `repository`, `repo_id`, `target_module_path`, `prompt` (signature and docstring), `full_function`,
 *   `function_name`, `relevant_test_path`; as a list of rows, or keyed repository → repo_id → row.
 * - `names`: function names alone per repository, keyed repository → repo_id → `function_name` (REPOCOD's
 *   `flaky_tests.json`) or repository → [`function_name`, …].
 * - `seed`: the seed's schema (`REPOCOD_Lite_Unified`, and our own releases): `instance_id`, `repo`,
 *   `base_commit`, `pre_patches`, `gold_patches`, `evaluation.FAIL_TO_PASS`.
 */
export const REFERENCE_FORMS = ['repocod', 'names', 'seed'] as const;
export type ReferenceForm = (typeof REFERENCE_FORMS)[number];

/** One task of a reference, whatever its form; a field its form does not carry is null. */
export interface ReferenceRow {
  /** 1-based position in the reference, in the order its source gives the rows. */
  readonly index: number;
  /** Where the row was read: `file:line`, `file: row N`, `file: $.sphinx["6"]`. */
  readonly where: string;
  readonly form: ReferenceForm;
  /** The repository as the reference names it: REPOCOD's short name (`plotly.py`) or `owner/name`. */
  readonly repository: string;
  readonly repoId: string | null;
  /** REPOCOD's `function_name`: a dotted suffix of file.Class.function (docs/fidelity.md). */
  readonly functionName: string | null;
  /** Repository-relative path of the function's file (`target_module_path`, or the pre patch's file). */
  readonly file: string | null;
  readonly prompt: string | null;
  readonly fullFunction: string | null;
  readonly instanceId: string | null;
  readonly baseCommit: string | null;
  readonly preCode: string | null;
  readonly goldCode: string | null;
  /** The seed's `pre_patches.test`: the relevant tests it removes from the starting state. */
  readonly preTest: string | null;
  readonly failToPass: readonly string[] | null;
  /** REPOCOD's `relevant_test_path`: the test files (or ids) it lists, as given. */
  readonly relevantTests: readonly string[] | null;
}

/** A row that could not be read, named with where it is and the field at fault. */
export interface ReferenceProblem {
  /** The 1-based position of the record at fault, null for the source as a whole. */
  readonly index: number | null;
  readonly where: string;
  /** The field at fault, or null when the row as a whole is. */
  readonly field: string | null;
  readonly message: string;
}

/** One record as a source gives it, before it is read as a row of some form. */
export interface ReferenceRecord {
  readonly where: string;
  /** A row object, or a function name (the `names` form). */
  readonly value: unknown;
  /** The keys a keyed form puts the record under: repository → repo_id. */
  readonly repository?: string;
  readonly repoId?: string;
  /** Why the source's text here could not be read at all (a line that is not JSON); `value` is the text. */
  readonly unreadable?: string;
}
