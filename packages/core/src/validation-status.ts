/** A task's verdict: `infra-error` (a timeout, a crash, a broken environment) is kept apart from a failed check. */
export type ValidationStatus = 'passed' | 'failed' | 'infra-error';

export const VALIDATION_STATUSES: readonly ValidationStatus[] = ['passed', 'failed', 'infra-error'];
