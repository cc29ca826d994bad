import { describe, expect, it } from 'vitest';
import { checkOneEraPerRepository, releasedTask, TwoErasError } from './released-task.js';

const ERA = '2ac89889f4cc';

describe('tasks as a release names them', () => {
  it("drops an era's @COMMIT12 from the instance id and the repository, and keeps the rest", () => {
    const task = { instanceId: `pallets__flask-flask.app.Flask.run@${ERA}`, repository: `flask@${ERA}`, level: 'x' };
    expect(releasedTask(task)).toEqual({
      instanceId: 'pallets__flask-flask.app.Flask.run',
      repository: 'flask',
      level: 'x',
    });
    const manifests = { instanceId: 'pallets__flask-flask.app.Flask.run', repository: 'flask' };
    expect(releasedTask(manifests)).toEqual(manifests);
  });

  it('lets each repository be at one commit, and names the commits of one that is at two', () => {
    const fix = (names: readonly string[]): string => `keep one of ${names.join(' and ')}`;
    checkOneEraPerRepository(
      [{ repository: 'flask' }, { repository: `seaborn@${ERA}` }, { repository: 'flask' }],
      'the selection',
      fix,
    );
    let thrown: unknown;
    try {
      checkOneEraPerRepository(
        [{ repository: `flask@${ERA}` }, { repository: 'flask' }, { repository: 'flask' }, { repository: 'seaborn' }],
        'selection 4dafa8ad08d5041b',
        fix,
      );
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(TwoErasError);
    const error = thrown as TwoErasError;
    expect([error.code, error.repository, [...error.eras]]).toEqual([
      'usage',
      'flask',
      [
        ['flask', 2],
        [`flask@${ERA}`, 1],
      ],
    ]);
    expect(error.message).toBe(
      `selection 4dafa8ad08d5041b: flask at 2 commits (flask, flask@${ERA}); a version takes one commit of a ` +
        `repository, so that an instance id names one task: keep one of flask and flask@${ERA}`,
    );
  });
});
