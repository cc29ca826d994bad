// What the tests and benchmarks need and the product never does: a loopback HTTP server standing in
// for the Hugging Face Hub, radon (the complexity oracle, a Python tool) run from TypeScript, and the releases of a
// small package as sdists, and ways of breaking a release's files.
export * from './loopback-hub.js';
export * from './radon-oracle.js';
export * from './worker-processes.js';
export * from './headless-chromium.js';
export * from './png-pixels.js';
export * from './release-sdists.js';
export * from './broken-files.js';
