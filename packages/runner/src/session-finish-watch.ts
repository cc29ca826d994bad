import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

/*
 * A pytest process can outlive its session: pytest-reportlog has written the session's end (every result and the
 * exit status are in the report), and then the interpreter waits at exit for threads a test left running (astropy's
 * SAMP hub tests, a thread pool never shut down). The run is over; waiting for the process would hold a worker until
 * the job's whole timeout (600 s per mutation in a batch). So the runner watches the report for its last line and
 * ends a process that has not exited a grace period after it.
 */

/** How long a process may take to exit after its session's end is in the report. */
export const EXIT_GRACE_SECONDS = 60;

/** How often the report is looked at while the run goes on. */
export const FINISH_POLL_MS = 2_000;

const TAIL_BYTES = 4_096;
const SESSION_FINISH = /"\$report_type":\s*"SessionFinish"/;

/** Whether the report log's last line is pytest's SessionFinish (read from its last 4 KiB; false while absent). */
export function reportLogFinished(reportFile: string): boolean {
  let fd: number;
  try {
    fd = openSync(reportFile, 'r');
  } catch {
    return false;
  }
  try {
    const size = fstatSync(fd).size;
    const length = Math.min(size, TAIL_BYTES);
    const buffer = Buffer.alloc(length);
    readSync(fd, buffer, 0, length, size - length);
    const lastLine = buffer.toString('utf8').trimEnd().split('\n').at(-1) ?? '';
    return SESSION_FINISH.test(lastLine);
  } finally {
    closeSync(fd);
  }
}
