export * from './reference-table.js';
export * from './task-statistics.js';
export * from './fidelity-comparison.js';
export * from './bin-comparison.js';
export * from './fidelity-markdown.js';
export * from './fidelity-html.js';
export * from './candidate-mode-table.js';
export * from './level-mix-table.js';
