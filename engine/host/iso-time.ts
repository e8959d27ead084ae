/**
 * UTC timestamps for the decision log, in Date#toISOString's format. The first
 * toISOString in a process costs ~0.25 ms (Node sets up its date cache), more than the
 * rest of writing a log line; this is plain arithmetic.
 */

const MS_PER_DAY = 86_400_000;

/**
 * `ms` since the epoch as `YYYY-MM-DDTHH:mm:ss.sssZ` (years 0 to 9999).
 * @example isoTime(0) // '1970-01-01T00:00:00.000Z'
 */
export function isoTime(ms: number): string {
  const days = Math.floor(ms / MS_PER_DAY);
  let rest = ms - days * MS_PER_DAY;
  const [year, month, day] = civilDate(days);
  const hours = Math.floor(rest / 3_600_000);
  rest -= hours * 3_600_000;
  const minutes = Math.floor(rest / 60_000);
  rest -= minutes * 60_000;
  const seconds = Math.floor(rest / 1000);
  const millis = rest - seconds * 1000;
  return `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}T${pad(hours, 2)}:${pad(minutes, 2)}:${pad(seconds, 2)}.${pad(millis, 3)}Z`;
}

/** Year, month (1-12) and day of the days since 1970-01-01 (the proleptic Gregorian calendar, in 400-year eras). */
function civilDate(days: number): [number, number, number] {
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor((dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365);
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const shiftedMonth = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * shiftedMonth + 2) / 5) + 1;
  const month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9;
  return [yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day];
}

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}
