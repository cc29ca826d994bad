export * from './seed-schema.js';
export * from './release-table.js';
export * from './dataset-card.js';
export * from './release-folder.js';
export * from './hub-target.js';
export * from './hub-error.js';
export * from './push-release.js';
export * from './hub-release.js';
/** Test support: an in-memory Hugging Face Hub on 127.0.0.1 for tests of publishing (not for production use). */
export * from './read-release.js';
export * from './hub-dataset-download.js';
export * from './release-manifest.js';
