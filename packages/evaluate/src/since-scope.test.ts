import { ChangedSinceError } from '@repocod/runner';
import { describe, expect, it } from 'vitest';
import { tasksSince } from './since-scope.js';

interface Task {
  readonly instanceId: string;
  readonly bodyChangedAt: string | null;
}

const TASKS: readonly Task[] = [
  { instanceId: 'old', bodyChangedAt: '2024-12-31T23:59:59Z' },
  { instanceId: 'on-the-day', bodyChangedAt: '2025-06-01T00:00:00Z' },
  { instanceId: 'undated', bodyChangedAt: null },
  { instanceId: 'new', bodyChangedAt: '2026-01-25T03:50:30Z' },
];
const dateOf = (task: Task): string | null => task.bodyChangedAt;

describe('tasksSince', () => {
  it('keeps the tasks whose body changed on or after the date, in order, and names those left out and why', () => {
    const { tasks, scope } = tasksSince(TASKS, dateOf, '2025-06-01T00:00:00Z', 'out/release (version 2.0)');
    expect(tasks.map((task) => task.instanceId)).toEqual(['on-the-day', 'new']);
    expect(scope).toEqual({
      since: '2025-06-01T00:00:00Z',
      scored: 2,
      changedBefore: ['old'],
      withoutBodyDate: ['undated'],
    });
  });

  it('refuses a release without any body date, naming it and what to do', () => {
    const undated = TASKS.map((task) => ({ ...task, bodyChangedAt: null }));
    const error = thrown(() => tasksSince(undated, dateOf, '2025-06-01T00:00:00Z', 'out/release (version 1.0)'));
    expect(error).toBeInstanceOf(ChangedSinceError);
    expect(error).toMatchObject({ code: 'usage', problem: 'no-dated-task', value: '2025-06-01T00:00:00Z' });
    expect(error.message).toMatch(/^--since 2025-06-01T00:00:00Z: no task of out\/release \(version 1\.0\) has a body/);
    expect(error.message).toMatch(/evaluate it without --since, or evaluate a fresh version$/);
  });

  it('refuses a date after every body, naming the newest', () => {
    const error = thrown(() => tasksSince(TASKS, dateOf, '2026-01-25T03:50:31Z', 'out/release (version 2.0)'));
    expect(error).toMatchObject({ code: 'usage', problem: 'no-task-since' });
    expect(error.message).toBe(
      '--since 2026-01-25T03:50:31Z: no task of out/release (version 2.0) has a body changed on or after it (the ' +
        'newest body changed 2026-01-25T03:50:30Z); give an earlier date',
    );
  });
});

function thrown(run: () => unknown): ChangedSinceError {
  try {
    run();
  } catch (error) {
    return error as ChangedSinceError;
  }
  throw new Error('expected an error');
}
