import { describe, expect, it } from 'vitest';
import { SerialQueue } from './serial-queue.js';

const tick = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 1));

describe('SerialQueue', () => {
  it('runs tasks one at a time in call order', async () => {
    const queue = new SerialQueue();
    const log: string[] = [];
    const task = (name: string) => async () => {
      log.push(`${name} start`);
      await tick();
      log.push(`${name} end`);
      return name;
    };
    expect(await Promise.all([queue.run(task('a')), queue.run(task('b'))])).toEqual(['a', 'b']);
    expect(log).toEqual(['a start', 'a end', 'b start', 'b end']);
  });

  it('keeps going after a failed task', async () => {
    const queue = new SerialQueue();
    const failed = queue.run(async () => {
      throw new Error('boom');
    });
    const next = queue.run(async () => 'ok');
    await expect(failed).rejects.toThrow('boom');
    expect(await next).toBe('ok');
    await queue.drain();
  });
});
