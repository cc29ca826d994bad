import type { FileIssue } from '@repocod/core';

/** The extract step's progress, typed: the TUI and the headless CLI render the same stream. */
export type ProgressEvent =
  | {
      readonly kind: 'extract-start';
      readonly repository: string;
      readonly files: number;
      readonly changed: number;
      readonly removed: number;
    }
  | {
      readonly kind: 'extract-file';
      readonly done: number;
      readonly total: number;
      readonly file: string;
      readonly functions: number;
    }
  | { readonly kind: 'extract-issue'; readonly issue: FileIssue }
  | { readonly kind: 'extract-stored'; readonly stored: number; readonly total: number };

export type ProgressListener = (event: ProgressEvent) => void;
