/** fast: coverage map + in-process mutations; exact: the whole suite per mutation, as REPOCOD did. */
export type MiningMode = 'fast' | 'exact';
