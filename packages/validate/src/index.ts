export * from './validation-jobs.js';
export * from './validation-verdict.js';
export * from './validation-summary.js';
export * from './gold-fit.js';
export * from './current-validation.js';
