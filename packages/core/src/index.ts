export * from './errors.js';
export * from './function-record.js';
export * from './candidate-filter.js';
export * from './test-files.js';
export * from './content-hash.js';
export * from './package-version.js';
export * from './line-patch.js';
export * from './context-level.js';
