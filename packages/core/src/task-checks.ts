import { asObject, booleanField, parseStoredJson, stringListField } from './json-shape.js';

/** The tasks stage's patch checks of a task (stored in `tasks.checks`). */
export interface TaskChecks {
  /** base + pre + gold gives the base bytes back (applied with git in a worktree). */
  readonly roundTrip: boolean;
  /** Both pre patches and both gold patches apply with `git apply`. */
  readonly applies: boolean;
  /**
   * The pre state (base + pre.code + pre.test) collects under pytest without error, or it does not
   * only because the tests' modules need the body at collection time.
   */
  readonly collects: boolean;
  /** The pre state does not collect, and does with the body: the function runs at import or collection time. */
  readonly bodyNeededAtCollection: boolean;
  /** Relevant tests whose definition was not found in their file (not removed by pre.test). */
  readonly testsNotFound: readonly string[];
  readonly messages: readonly string[];
}

/**
 * A stored `tasks.checks` value. Rows from before a field existed read as its neutral value (no body
 * needed at collection, no test missing, no message): the checks they record held without it.
 */
export function decodeTaskChecks(text: string, where: string): TaskChecks {
  const object = asObject(parseStoredJson(text, where), where);
  return {
    roundTrip: booleanField(object, 'roundTrip', where),
    applies: booleanField(object, 'applies', where),
    collects: booleanField(object, 'collects', where),
    bodyNeededAtCollection:
      object.bodyNeededAtCollection === undefined ? false : booleanField(object, 'bodyNeededAtCollection', where),
    testsNotFound: object.testsNotFound === undefined ? [] : stringListField(object, 'testsNotFound', where),
    messages: object.messages === undefined ? [] : stringListField(object, 'messages', where),
  };
}
