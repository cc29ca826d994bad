import { createHash } from 'node:crypto';

/** The catalog keys everything by content: sha256 hex of the exact bytes. */
export function contentHash(data: Uint8Array | string): string {
  return createHash('sha256').update(data).digest('hex');
}
