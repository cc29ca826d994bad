export * from './seed-schema.js';
export * from './release-table.js';
export * from './dataset-card.js';
export * from './release-folder.js';
