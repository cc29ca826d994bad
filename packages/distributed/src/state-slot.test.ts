import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { claimStateSlot } from './state-slot.js';

describe('claimStateSlot', () => {
  it('gives each worker process of a machine its own folder, and frees it again', () => {
    const root = mkdtempSync(join(tmpdir(), 'repocod-slots-'));
    const first = claimStateSlot(root);
    expect(first.path).toBe(join(root, 'worker-0'));
    expect(readFileSync(join(first.path, 'worker.pid'), 'utf8')).toBe(String(process.pid));
    // A second worker (here in the same process) takes the next folder.
    const second = claimStateSlot(root);
    expect(second.path).toBe(join(root, 'worker-1'));
    first.release();
    expect(existsSync(join(first.path, 'worker.pid'))).toBe(false);
    expect(claimStateSlot(root).path).toBe(join(root, 'worker-0'));
  });

  it('takes over a folder whose worker died', async () => {
    const root = mkdtempSync(join(tmpdir(), 'repocod-slots-'));
    const gone = spawn('true');
    await new Promise((resolve) => gone.on('exit', resolve));
    writeFileSync(join(root, 'worker.pid'), String(gone.pid));
    expect(claimStateSlot(root, root).path).toBe(root);
  });

  it('refuses a folder given by hand that a live worker holds, naming the pid', () => {
    const root = mkdtempSync(join(tmpdir(), 'repocod-slots-'));
    writeFileSync(join(root, 'worker.pid'), String(process.ppid));
    expect(() => claimStateSlot(root, root)).toThrow(
      new RegExp(`in use by worker process ${process.ppid}; give this worker another --state`),
    );
  });
});
