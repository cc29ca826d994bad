export { type Catalog, DEFAULT_CATALOG_PATH, IN_MEMORY, openCatalog } from './catalog.js';
export type { CatalogEngine } from './catalog-engine.js';
export type { CheckpointStore } from './checkpoint-store.js';
export type {
  CatalogRepository,
  ExtractionStore,
  FunctionFilter,
  FunctionStats,
  KnownFile,
} from './extraction-store.js';
export type { MiningResultsStore } from './mining-results-store.js';
export type { BodyHistoryDating, BodyHistoryKey, BodyHistoryRow, BodyHistoryStore } from './body-history-store.js';
export type { RunFilter, RunStore } from './run-store.js';
export type { RepositoryCounts, RepositoryCountsStore } from './repository-counts-store.js';
export type { StageTimeStore } from './stage-time-store.js';
export type { JobCostStore } from './job-cost-store.js';
export {
  PROSPECTIVE_TASK_COLUMNS,
  type ProspectiveTask,
  type RankedTask,
  type RankQuery,
  type ScoredProspectiveTask,
  type StoredTask,
  type InstanceIdRename,
  type TaskStore,
} from './task-store.js';
export type { ValidationFilter, ValidationStore, ValidationVerdictRow } from './validation-store.js';
export type { EvaluationRun, EvaluationRunSummary, EvaluationStore, StoredEvaluation } from './evaluation-store.js';
export type { ReferenceStore, ReferenceSummary, StoredReference, StoredReferenceRow } from './reference-store.js';
export { type FileExtraction, type FileStatus, FILE_STATUSES, extractionProblem } from './file-extraction.js';
export { type CatalogFile, FILE_COLUMNS } from './files-table.js';
export { type CatalogFunction, FUNCTION_COLUMNS } from './functions-table.js';
export { functionId } from './function-id.js';
export { type FormatTableOptions, formatTable } from './format-table.js';
export { type Migration, MIGRATIONS, latestSchemaVersion } from './migrations.js';
export {
  type RunRecord,
  type RunStatus,
  type StoredRun,
  type TestOutcome,
  type TestResultRecord,
  RUN_STATUSES,
  TEST_OUTCOMES,
} from './runs-table.js';
export { type Cell, type QueryResult, toCell } from './query-result.js';
export {
  type MiningBaselineRow,
  type MiningCoverageRow,
  type MiningMode,
  type RelevantTestsRow,
  type StoredRelevantTests,
  MINING_BASELINE_COLUMNS,
  MINING_COVERAGE_COLUMNS,
  RELEVANT_TESTS_COLUMNS,
} from './mining-tables.js';
export type { StageTime } from './stage-times-table.js';
export type { JobCost, StoredJobCost } from './job-costs-table.js';
export { type SelectionPick, type TaskLevel, type TaskRow, type TaskSummary, TASK_COLUMNS } from './tasks-tables.js';
export {
  type StoredValidation,
  type ValidationRow,
  type ValidationStatus,
  VALIDATION_COLUMNS,
  VALIDATION_STATUSES,
} from './validations-table.js';
export {
  type CheckpointManifest,
  type CheckpointTableCount,
  CHECKPOINT_MANIFEST,
  CHECKPOINT_TABLES,
} from './repository-checkpoint.js';
export { checkpointDigest } from './checkpoint-digest.js';
