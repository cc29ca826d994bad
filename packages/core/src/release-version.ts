/**
 * The version a release is written as when none is given: the flow's and `repocod curate`'s, a rebuild's when
 * neither the command nor the committed release manifest names one, and the first the TUI proposes for an empty
 * release folder.
 */
export const DEFAULT_RELEASE_VERSION = '1.0';
