import type { InputProblem } from '../errors.ts';

/** A client record that passed validation, with the fields the build sorts and groups by. */
export interface ValidClient {
  id: number;
  name: string;
  effectiveDate: string | null;
  record: Record<string, unknown>;
  registrant: Record<string, unknown>;
  registrantId: number;
  /** `dt_updated` as UTC microseconds, to find the latest copy of a registrant; missing = oldest. */
  registrantUpdated: number;
}

export type Validation = { ok: true; client: ValidClient } | { ok: false; problems: InputProblem[] };

interface Where {
  file: string;
  line: number;
  index?: number;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6})\d*)?(Z|[+-]\d{2}:?\d{2})?$/;
export const OLDEST = Number.MIN_SAFE_INTEGER;

/**
 * Checks one input record against contract section 7: an integer `id`, a string `name` and a
 * registrant object with an integer `id`. The fields the mirror sorts or picks by (`effective_date`,
 * `registrant.dt_updated`) must also be readable, or the order of the pages would be wrong silently.
 * Every other field is passed through as stored.
 */
export function validateClient(value: unknown, where: Where): Validation {
  const problems: InputProblem[] = [];
  const fail = (field: string | undefined, message: string) => problems.push({ ...where, field, message });

  if (!isObject(value)) {
    fail(undefined, `a client record must be a JSON object, got ${describe(value)}`);
    return { ok: false, problems };
  }
  if (!isId(value.id)) fail('id', requiredInteger(value.id));
  if (typeof value.name !== 'string') fail('name', `must be a string, got ${describe(value.name)}`);
  const date = value.effective_date ?? null;
  if (date !== null && !(typeof date === 'string' && DATE.test(date))) {
    fail('effective_date', `must be a YYYY-MM-DD date or null, got ${describe(date)}`);
  }
  const registrant = value.registrant;
  let updated = OLDEST;
  if (!isObject(registrant)) {
    fail('registrant', `must be a registrant object, got ${describe(registrant)}`);
  } else {
    if (!isId(registrant.id)) fail('registrant.id', requiredInteger(registrant.id));
    const stamp = registrant.dt_updated ?? null;
    if (stamp !== null) {
      const micros = typeof stamp === 'string' ? timestampMicros(stamp) : undefined;
      if (micros === undefined) fail('registrant.dt_updated', `must be an ISO 8601 timestamp or null, got ${describe(stamp)}`);
      else updated = micros;
    }
  }
  if (problems.length > 0) return { ok: false, problems };
  const valid = value as Record<string, unknown> & { id: number; name: string };
  const validRegistrant = registrant as Record<string, unknown> & { id: number };
  return {
    ok: true,
    client: {
      id: valid.id,
      name: valid.name,
      effectiveDate: date as string | null,
      record: valid,
      registrant: validRegistrant,
      registrantId: validRegistrant.id,
      registrantUpdated: updated,
    },
  };
}

/** UTC microseconds of an ISO 8601 timestamp, offset applied; undefined when it is not one. */
export function timestampMicros(stamp: string): number | undefined {
  const match = TIMESTAMP.exec(stamp);
  if (!match) return undefined;
  const [, year, month, day, hour, minute, second, fraction = '', zone = 'Z'] = match;
  const millis = Date.UTC(+year!, +month! - 1, +day!, +hour!, +minute!, +second!);
  if (Number.isNaN(millis)) return undefined;
  let offsetMinutes = 0;
  if (zone !== 'Z') {
    const digits = zone.replace(':', '');
    offsetMinutes = (digits[0] === '-' ? -1 : 1) * (Number(digits.slice(1, 3)) * 60 + Number(digits.slice(3, 5)));
  }
  return (millis - offsetMinutes * 60_000) * 1000 + Number(fraction.padEnd(6, '0'));
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Record ids are non-negative integers that JSON numbers carry exactly. */
function isId(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

function requiredInteger(value: unknown): string {
  return value === undefined ? 'is missing (an integer is required)' : `must be a non-negative integer, got ${describe(value)}`;
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
