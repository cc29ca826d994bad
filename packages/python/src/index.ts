export * from './python-parser.js';
export * from './source-text.js';
export * from './syntax-nodes.js';
export * from './docstring.js';
export * from './extract-functions.js';
export * from './parse-python-file.js';
export * from './list-python-files.js';
export * from './python-stdlib.js';
