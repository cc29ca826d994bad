export * from './test-outcome.js';
export * from './pytest-report.js';
export * from './manifest.js';
export * from './manifest-entry.js';
export * from './manifest-overrides.js';
export * from './manifest-recipe-hash.js';
export * from './git.js';
export * from './checkout.js';
