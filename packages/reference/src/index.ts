export * from './reference-row.js';
export * from './reference-records.js';
export * from './read-reference-rows.js';
export * from './repository-names.js';
export * from './text-difference.js';
export * from './resolve-reference-row.js';
export * from './reference-audit.js';
export * from './reference-release.js';
