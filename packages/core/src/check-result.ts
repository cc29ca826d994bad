import {
  asArray,
  asObject,
  booleanField,
  numberField,
  oneOfField,
  parseStoredJson,
  stringField,
  stringListField,
} from './json-shape.js';

/** Validation's checks of a task, in the order they run. */
export type ValidationCheck = 'collects' | 'fails-without-body' | 'passes-with-gold';

export const VALIDATION_CHECKS: readonly ValidationCheck[] = ['collects', 'fails-without-body', 'passes-with-gold'];

export type CheckStatus = 'passed' | 'failed' | 'infra-error';

export const CHECK_STATUSES: readonly CheckStatus[] = ['passed', 'failed', 'infra-error'];

/** One check of a task, as stored (`validations.checks`) and shown. */
export interface CheckResult {
  readonly check: ValidationCheck;
  readonly status: CheckStatus;
  /** The tests the check is about when it did not pass (with their outcome), else empty. */
  readonly tests: readonly string[];
  /** One line for people. */
  readonly detail: string;
  /** The end of pytest's output of the run that decided a failed check; null when it passed. */
  readonly log: string | null;
  readonly runIds: readonly string[];
  /** The collect check only: the pre state collects only with the body (its tests need it at collection). */
  readonly bodyNeededAtCollection?: boolean;
  /** The gold check only (validations since version 3): whether the whole FAIL_TO_PASS fits the limit. */
  readonly fit?: GoldFit;
}

/** How a task's fit within the limit of one run was measured (validate's gold-fit.ts states the rules). */
export interface GoldFit {
  readonly fits: boolean;
  /** The time measured: the longest gold run, the one fit run, or the baseline durations summed. */
  readonly seconds: number;
  readonly limitSeconds: number;
  readonly from: GoldFitSource;
}

export type GoldFitSource = 'gold-runs' | 'fit-run' | 'baseline-durations';

export const GOLD_FIT_SOURCES: readonly GoldFitSource[] = ['gold-runs', 'fit-run', 'baseline-durations'];

/** A stored `validations.checks` value. */
export function decodeCheckResults(text: string, where: string): CheckResult[] {
  return asArray(parseStoredJson(text, where), where).map((item, index) => {
    const at = `${where}[${index}]`;
    const object = asObject(item, at);
    return {
      check: oneOfField(object, 'check', VALIDATION_CHECKS, at),
      status: oneOfField(object, 'status', CHECK_STATUSES, at),
      tests: stringListField(object, 'tests', at),
      detail: stringField(object, 'detail', at),
      log: object.log === null || object.log === undefined ? null : stringField(object, 'log', at),
      runIds: object.runIds === undefined ? [] : stringListField(object, 'runIds', at),
      ...(object.bodyNeededAtCollection === undefined
        ? {}
        : { bodyNeededAtCollection: booleanField(object, 'bodyNeededAtCollection', at) }),
      ...(object.fit === undefined || object.fit === null ? {} : { fit: decodeGoldFit(object.fit, `${at}.fit`) }),
    };
  });
}

function decodeGoldFit(value: unknown, at: string): GoldFit {
  const object = asObject(value, at);
  return {
    fits: booleanField(object, 'fits', at),
    seconds: numberField(object, 'seconds', at),
    limitSeconds: numberField(object, 'limitSeconds', at),
    from: oneOfField(object, 'from', GOLD_FIT_SOURCES, at),
  };
}
