import { stripPython } from '../routing/python-text.ts';
import { wallTimeInstant } from './new-york-time.ts';

/**
 * A date and time read as Django's form `DateTimeField` reads it (contract section 10), as the
 * instant it names in microseconds since 1970 (UTC), or undefined when it names none (400 `Enter a
 * valid date/time.`). The value is stripped, then read by `parse_datetime` (Python's
 * `datetime.fromisoformat`, then Django's own pattern), then by the input formats of Django's English
 * locale (`DATETIME_INPUT_FORMATS`, then `DATE_INPUT_FORMATS`), as `strptime` reads them. A value
 * with an offset is that instant; one without is a wall time in New York (the live service's
 * TIME_ZONE). Digits are ASCII digits (Python would also take other scripts' digits).
 */
export function readDateTime(value: string): number | undefined {
  const text = stripPython(value);
  const parts = isoDateTime(text) ?? djangoDateTime(text) ?? formattedDateTime(text);
  // An offset of a day or more is refused (Python's timezone): NaN.
  if (parts === undefined || !validParts(parts) || Number.isNaN(parts.offsetMinutes)) return undefined;
  const wall = wallMicroseconds(parts);
  return parts.offsetMinutes === undefined ? wallTimeInstant(wall) : wall - parts.offsetMinutes * 60_000_000;
}

export interface DateTimeParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  microsecond: number;
  /** East of UTC; undefined for a wall time. */
  offsetMinutes?: number;
}

/** A date and time, without the offset, as microseconds since 1970 as if it were UTC. */
export function wallMicroseconds(parts: DateTimeParts): number {
  const date = new Date(0);
  date.setUTCFullYear(parts.year, parts.month - 1, parts.day);
  date.setUTCHours(parts.hour, parts.minute, parts.second, 0);
  return date.getTime() * 1000 + parts.microsecond;
}

/** Python's `datetime(...)` refuses what is not on the calendar or the clock. */
function validParts(parts: DateTimeParts): boolean {
  const { year, month, day, hour, minute, second } = parts;
  if (year < 1 || year > 9999 || month < 1 || month > 12 || day < 1) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
  return day <= days && hour < 24 && minute < 60 && second < 60;
}

/** Digits of a fraction of a second as microseconds: the first six, padded (Python cuts the rest). */
function microseconds(fraction: string | undefined): number {
  return fraction === undefined ? 0 : Number(fraction.slice(0, 6).padEnd(6, '0'));
}

/** An offset such as `Z`, `-05`, `+0530`, `-04:00`, `+01:00:30` in minutes (seconds kept as a fraction). */
function offsetOf(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (text === 'Z') return 0;
  const match = /^([+-])(\d{2})(?::?(\d{2})(?::?(\d{2})(?:\.(\d{1,6}))?)?)?$/.exec(text);
  if (match === null) return Number.NaN;
  const minutes = Number(match[2]) * 60 + Number(match[3] ?? 0) + (Number(match[4] ?? 0) + microseconds(match[5]) / 1e6) / 60;
  // An offset is less than a day (Python's timezone refuses the rest).
  if (minutes >= 24 * 60) return Number.NaN;
  return match[1] === '-' ? -minutes : minutes;
}

/**
 * Python 3.11's `datetime.fromisoformat`: `YYYY-MM-DD` or `YYYYMMDD`, then optionally any one
 * character and a time (`HH`, `HH:MM`, `HH:MM:SS`, `HHMM`, `HHMMSS`, a fraction after `.` or `,`),
 * then optionally an offset. ISO week dates are not read.
 */
function isoDateTime(text: string): DateTimeParts | undefined {
  const match = /^(\d{4})(-?)(\d{2})\2(\d{2})(?:.(\d{2})(?:(:?)(\d{2})(?:\6(\d{2})(?:[.,](\d+))?)?)?(Z|[+-][\d:.]+)?)?$/su.exec(text);
  if (match === null) return undefined;
  const offsetMinutes = offsetOf(match[10]);
  if (Number.isNaN(offsetMinutes)) return undefined;
  return {
    year: Number(match[1]),
    month: Number(match[3]),
    day: Number(match[4]),
    hour: Number(match[5] ?? 0),
    minute: Number(match[7] ?? 0),
    second: Number(match[8] ?? 0),
    microsecond: microseconds(match[9]),
    offsetMinutes,
  };
}

/** django.utils.dateparse's `datetime_re`, tried when `fromisoformat` refuses the value. */
function djangoDateTime(text: string): DateTimeParts | undefined {
  const match = /^(\d{4})-(\d{1,2})-(\d{1,2})[T ](\d{1,2}):(\d{1,2})(?::(\d{1,2})(?:[.,](\d{1,6})\d{0,6})?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?\n?$/.exec(text);
  if (match === null) return undefined;
  return {
    year: Number(match[1]),
    month: Number(match[2]),
    day: Number(match[3]),
    hour: Number(match[4]),
    minute: Number(match[5]),
    second: Number(match[6] ?? 0),
    microsecond: microseconds(match[7]),
    offsetMinutes: offsetOf(match[8]),
  };
}

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

/** strptime's patterns for the directives the input formats use (Python's `_strptime`, ASCII digits). */
const DIRECTIVES: Record<string, string> = {
  Y: '(?<Y>\\d\\d\\d\\d)',
  y: '(?<y>\\d\\d)',
  m: '(?<m>1[0-2]|0[1-9]|[1-9])',
  d: '(?<d>3[01]|[12]\\d|0[1-9]|[1-9]| [1-9])',
  H: '(?<H>2[0-3]|[0-1]\\d|\\d)',
  M: '(?<M>[0-5]\\d|\\d)',
  S: '(?<S>6[0-1]|[0-5]\\d|\\d)',
  f: '(?<f>[0-9]{1,6})',
  b: `(?<b>${MONTHS.map((month) => month.slice(0, 3)).join('|')})`,
  B: `(?<B>${MONTHS.join('|')})`,
};

/** Django's English locale: DATETIME_INPUT_FORMATS, then DATE_INPUT_FORMATS (a DateTimeField tries both). */
const INPUT_FORMATS = [
  '%Y-%m-%d %H:%M:%S', '%Y-%m-%d %H:%M:%S.%f', '%Y-%m-%d %H:%M',
  '%m/%d/%Y %H:%M:%S', '%m/%d/%Y %H:%M:%S.%f', '%m/%d/%Y %H:%M',
  '%m/%d/%y %H:%M:%S', '%m/%d/%y %H:%M:%S.%f', '%m/%d/%y %H:%M',
  '%Y-%m-%d', '%m/%d/%Y', '%m/%d/%y',
  '%b %d %Y', '%b %d, %Y', '%d %b %Y', '%d %b, %Y',
  '%B %d %Y', '%B %d, %Y', '%d %B %Y', '%d %B, %Y',
];

/** Each format as strptime matches it: the whole value, case ignored, a space being any run of white space. */
const FORMAT_PATTERNS = INPUT_FORMATS.map(
  (format) => new RegExp(`^${format.replace(/%(\w)|( )|([^%\w ])/g, (_, directive: string, space: string, other: string) => (directive !== undefined ? DIRECTIVES[directive]! : space !== undefined ? '\\s+' : `\\${other}`))}$`, 'i'),
);

function formattedDateTime(text: string): DateTimeParts | undefined {
  for (const pattern of FORMAT_PATTERNS) {
    const groups = pattern.exec(text)?.groups;
    if (groups === undefined) continue;
    const shortYear = groups.y === undefined ? undefined : Number(groups.y);
    const monthName = (groups.b ?? groups.B)?.toLowerCase();
    const parts: DateTimeParts = {
      year: shortYear === undefined ? Number(groups.Y) : shortYear + (shortYear <= 68 ? 2000 : 1900),
      month: monthName === undefined ? Number(groups.m) : MONTHS.findIndex((month) => month.startsWith(monthName)) + 1,
      day: Number(groups.d!.trim()),
      hour: Number(groups.H ?? 0),
      minute: Number(groups.M ?? 0),
      second: Number(groups.S ?? 0),
      microsecond: microseconds(groups.f),
    };
    // strptime's datetime refuses a day past the month's end: the next format is tried.
    if (validParts(parts)) return parts;
  }
  return undefined;
}
