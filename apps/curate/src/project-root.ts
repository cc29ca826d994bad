import { fileURLToPath } from 'node:url';

/** The repocod-kit folder: where the built-in manifests are and where `.repocod/` state lives. */
export const PROJECT_ROOT = fileURLToPath(new URL('../../..', import.meta.url));
