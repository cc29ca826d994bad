/**
 * REPOCOD's context level: how far from its own file a task's canonical solution reaches for
 * repository-defined functions and classes (the paper's corrected definition). Shared by the
 * classifier (packages/tasks), the catalog's tasks table and the selection.
 */
export type ContextLevel = 'self-contained' | 'file-level' | 'repo-level';

/** The context levels, narrowest first. */
export const CONTEXT_LEVELS: readonly ContextLevel[] = ['self-contained', 'file-level', 'repo-level'];
