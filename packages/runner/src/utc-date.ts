const DAY = /^\d{4}-\d{2}-\d{2}$/;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * The instant a date option names, in milliseconds since the epoch: a day (`2024-09-01`, its start in UTC) or an
 * ISO 8601 timestamp with its zone (`2024-09-01T12:00:00Z`, `2024-09-01T14:00+02:00`); null for anything else,
 * a timestamp without a zone included (its instant would depend on the machine's zone).
 */
export function parseUtcDate(value: string): number | null {
  const text = value.trim();
  if (!isCalendarDay(text.slice(0, 10))) return null;
  const parsed = DAY.test(text)
    ? Date.parse(`${text}T00:00:00Z`)
    : TIMESTAMP.test(text)
      ? Date.parse(text)
      : Number.NaN;
  return Number.isNaN(parsed) ? null : parsed;
}

/** `YYYY-MM-DD` names a day of the calendar: JavaScript would read 2024-02-30 as March 1st. */
function isCalendarDay(day: string): boolean {
  const [year, month, date] = day.split('-').map(Number);
  if (year === undefined || month === undefined || date === undefined) return false;
  const utc = new Date(Date.UTC(year, month - 1, date));
  return utc.getUTCFullYear() === year && utc.getUTCMonth() === month - 1 && utc.getUTCDate() === date;
}

/** Whether `value` is a day or a timestamp with its zone as parseUtcDate reads them (not checking the calendar). */
export function isUtcDateText(value: string): boolean {
  return DAY.test(value) || TIMESTAMP.test(value);
}

/** Milliseconds since the epoch as UTC `YYYY-MM-DDTHH:MM:SSZ`, the form the catalog's dates take. */
export function utcTimestamp(millis: number): string {
  return new Date(millis).toISOString().replace(/\.\d{3}Z$/, 'Z');
}
