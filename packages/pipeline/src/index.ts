export * from './progress.js';
export * from './read-sources.js';
export * from './extractor-fingerprint.js';
export * from './extract-stage.js';
// The front ends talk to the pipeline only; these are the catalog entry points they need.
export { DEFAULT_CATALOG_PATH, formatTable, openCatalog } from '@repocod/catalog';
export type { Catalog, CatalogFunction, QueryResult } from '@repocod/catalog';
export * from './load-config.js';
export { assertRepositoryFolder, listPythonFiles } from '@repocod/python';
export * from './find-repository.js';
export * from './run-tests-stage.js';
export * from './mining-store.js';
export * from './mine-stage.js';
export type { MiningTracebacks, FunctionMining, MiningMode } from '@repocod/mining';
export * from './tasks-stage.js';
export * from './select-stage.js';
export { DEFAULT_TEMPLATES, parseSelectionSpec, REPOCOD_LITE_SPEC } from '@repocod/tasks';
export type { SelectionSpec, StatementTemplates } from '@repocod/tasks';
export * from './publish-stage.js';
export * from './job-records.js';
export * from './tool-version.js';
export * from './validation-jobs.js';
export * from './validation-verdict.js';
export * from './validate-stage.js';
export type { StoredValidation, ValidationRow, ValidationStatus } from '@repocod/catalog';
export * from './validation-summary.js';
export * from './release-content.js';
export * from './selection-tasks.js';
// For --push: the checks of a Hub target, made before anything is written.
export { hubToken, parseHubRepo } from '@repocod/publish';
// Test support: a loopback HTTP server that stands in for the Hub (see @repocod/publish).
export { startLoopbackHub } from '@repocod/publish';
export type { LoopbackHub } from '@repocod/publish';
export * from './curation-view.js';
export * from './flow-events.js';
export * from './flow.js';
export * from './flow-status.js';
export * from './rebuild-record.js';
export * from './rebuild-record-files.js';
