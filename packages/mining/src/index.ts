export * from './baseline.js';
export * from './batches.js';
export * from './coverage-map.js';
export * from './mining-store.js';
export * from './mutation-artifact.js';
export * from './mutation-target.js';
export * from './relevant-tests.js';
export * from './mine.js';
