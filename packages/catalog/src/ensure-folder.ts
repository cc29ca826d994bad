import { mkdir, stat } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * Creates a folder and its missing parents, one level at a time. Node 20's `mkdir(…, { recursive: true })`
 * never settles when the kernel answers ENOENT for a parent that exists (as /proc does), so the
 * recursion is done here, where every failure surfaces as a rejected promise.
 */
export async function ensureFolder(folder: string): Promise<void> {
  const existing = await stat(folder).catch((error: unknown) => {
    if (isCode(error, 'ENOENT')) return null;
    throw error;
  });
  if (existing !== null) {
    if (existing.isDirectory()) return;
    throw Object.assign(new Error(`${folder} is not a directory`), { code: 'ENOTDIR' });
  }
  const parent = dirname(folder);
  if (parent !== folder) await ensureFolder(parent);
  try {
    await mkdir(folder);
  } catch (error) {
    // Another process may have created it between the stat and the mkdir.
    if (!isCode(error, 'EEXIST')) throw error;
  }
}

function isCode(error: unknown, code: string): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === code;
}
