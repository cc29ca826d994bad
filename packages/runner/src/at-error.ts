import { RepocodError } from '@repocod/core';

/** Why a commit spec (`--at NAME=REF`'s REF) names no commit; see at-spec.ts and at-ref.ts. */
export type AtErrorCode = 'ref-malformed' | 'ref-not-found' | 'date-in-future' | 'date-before-history';

export interface AtFailure {
  readonly code: AtErrorCode;
  /** How the user wrote it, for the message: `--at flask=v9`, or the spec alone when no option gave it. */
  readonly label: string;
  /** The spec itself: `v9`, `2031-01-01`. */
  readonly spec: string;
  /** What is wrong and what to do, after the label. */
  readonly detail: string;
  /** Tags and branches spelled like an unknown ref (nearest first), when there are any. */
  readonly near?: readonly string[];
}

/**
 * A spec that names no commit. The message starts with the option and value as the user wrote them; the
 * fields let a caller (or a test) tell the cases apart without reading the words.
 */
export class AtError extends RepocodError {
  readonly spec: string;
  readonly label: string;
  readonly near: readonly string[];

  constructor(failure: AtFailure, options?: { cause?: unknown }) {
    super(failure.code, `${failure.label}: ${failure.detail}`, options);
    this.name = 'AtError';
    this.spec = failure.spec;
    this.label = failure.label;
    this.near = failure.near ?? [];
  }
}
