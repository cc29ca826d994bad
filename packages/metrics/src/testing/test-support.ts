import { resolve } from 'node:path';

/** The repository root, for tests that look up tools installed under .repocod/. */
export const PROJECT_ROOT = resolve(new URL('../../../..', import.meta.url).pathname);
