import type { FunctionMining } from './mining-store.js';
import { mutationMessage } from './mutation-target.js';

/**
 * Whether a function's mining error is one a rerun cannot change: pytest stopped on the mutation's
 * own assertion (the body runs while the suite starts: a decorator, a module-level call, the test
 * header), so every later run stops the same way. A resumed run keeps such an answer instead of
 * mining the function again (on sympy, ten minutes a time); every other error is retried.
 */
export function isSettledError(result: Pick<FunctionMining, 'status' | 'reason' | 'qualname'>): boolean {
  return result.status === 'error' && (result.reason ?? '').includes(mutationMessage(result.qualname));
}
