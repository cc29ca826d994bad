export * from './seed-schema.js';
export * from './release-table.js';
