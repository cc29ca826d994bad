import type { BaselineTest } from './baseline.js';

/**
 * What Python and its HTTP clients say when there is no network: the runner's tests have none (a new
 * network namespace with only loopback), so a test that reaches out fails at the base commit with one
 * of these, is never passing, and so never enters a FAIL_TO_PASS. Matched on the first line of the
 * failure, which the baseline keeps in its reason.
 */
const NETWORK_ERRORS: readonly RegExp[] = [
  /Network is unreachable/i,
  /Temporary failure in name resolution/i,
  /Name or service not known/i,
  /nodename nor servname provided/i,
  /No address associated with hostname/i,
  /getaddrinfo failed/i,
  /Failed to establish a new connection/i,
  /Max retries exceeded with url/i,
  /ConnectionError|ConnectTimeout|NewConnectionError|URLError/,
  /Could not resolve host/i,
];

/** The baseline's tests that fail for want of a network, by their reason; the runner isolates them by design. */
export function networkBound<Test extends Pick<BaselineTest, 'status' | 'reason'>>(tests: readonly Test[]): Test[] {
  return tests.filter(
    (test) =>
      test.status !== 'passing' &&
      test.reason !== null &&
      NETWORK_ERRORS.some((pattern) => pattern.test(test.reason ?? '')),
  );
}
