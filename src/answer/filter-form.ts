import { MAX_ID_DIGITS } from '../contract.ts';
import { jsonText } from '../json-text.ts';
import { hasFraction, integerDigits, pythonDecimal, stripPython } from '../routing/python-text.ts';
import { searchText } from '../bundle/search-text.ts';
import { readDateTime } from './date-time-form.ts';
import { CLIENTS, type FilterKind, type ListFilter } from './list-resource.ts';

/**
 * A list's filters read as django-filter's form reads them (contract sections 9 and 10): each its
 * parameter's last value; an empty value filters nothing. Either what a client must match, or the
 * 400 body naming every value that is wrong, keys in the form's order.
 */
export interface ClientCriteria {
  /** A client id; null when the number is one no id can be (negative, fractional part aside, or too long). */
  id?: number | null;
  /** Upper-cased (`searchText`), in UTF-8: the name must hold it. */
  clientName?: Uint8Array;
  state?: string;
  country?: string;
  ppbState?: string;
  ppbCountry?: string;
  registrantId?: number | null;
  registrantName?: Uint8Array;
}

export interface Choices {
  states: readonly string[];
  countries: readonly string[];
}

/** What a request's filters ask of a record, by the column each compares (list-resource.ts). */
export type Criteria = Record<string, string | number | Uint8Array | null>;

type Reading = { value: string | number | Uint8Array | null } | { error: string } | undefined;

/** How each kind of filter reads its value (list-resource.ts says which kind a filter is). */
function readValue(reading: FilterKind, value: string, choices: Choices): Reading {
  switch (reading.kind) {
    case 'id':
    case 'relatedId':
      return readNumber(value);
    case 'name':
      return readName(value);
    case 'choice':
      return readChoice(value, choices[reading.choices]);
    case 'dateTimeRange': {
      const instant = readDateTime(value);
      return instant === undefined ? { error: 'Enter a valid date/time.' } : { value: instant };
    }
  }
}

/**
 * A resource's filters read from the request, in its form's order; a range's two bounds share one
 * key of the 400 body, a message said once (Django's MultiValueField).
 */
export function readFilters(values: ReadonlyMap<string, string>, choices: Choices, filters: readonly ListFilter[] = CLIENTS.filters): { criteria: Criteria } | { errorBody: string } {
  const criteria: Criteria = {};
  const errors: Record<string, string[]> = {};
  for (const { param, field, reading: kind } of filters) {
    const value = values.get(param);
    if (value === undefined || value === '') continue;
    const reading = readValue(kind, value, choices);
    if (reading === undefined) continue;
    if ('error' in reading) {
      const key = kind.kind === 'dateTimeRange' ? kind.range : param;
      const messages = (errors[key] ??= []);
      if (!messages.includes(reading.error)) messages.push(reading.error);
    } else criteria[field] = reading.value;
  }
  if (Object.keys(errors).length > 0) return { errorBody: jsonText(errors) };
  return { criteria };
}

const encoder = new TextEncoder();

/** django-filter's NumberFilter refuses numbers above 1e50 (the float, exactly: 1e50 is not quite 10^50). */
const NUMBER_LIMIT = '100000000000000007629769841091887003294964970946560';

/** A NumberFilter: Django's DecimalField, cut toward zero by the lookup on an integer column. */
function readNumber(value: string): Reading {
  const number = pythonDecimal(value);
  if (number === undefined) return { error: 'Enter a number.' };
  if (!number.negative && exceedsLimit(number.digits, number.point)) {
    return { error: 'Ensure this value is less than or equal to 1e+50.' };
  }
  const integer = integerDigits(number, MAX_ID_DIGITS);
  // No client or registrant has a negative id, nor one this long: nothing matches.
  if (integer === undefined || (number.negative && integer !== '0')) return { value: null };
  return { value: Number(integer) };
}

/** Whether a positive decimal number is above NUMBER_LIMIT. */
function exceedsLimit(digits: string, point: number): boolean {
  if (point !== NUMBER_LIMIT.length) return point > NUMBER_LIMIT.length;
  const integer = digits.slice(0, point).padEnd(point, '0');
  if (integer !== NUMBER_LIMIT) return integer > NUMBER_LIMIT;
  return hasFraction({ negative: false, digits, point });
}

/** A CharField: stripped; white space alone filters nothing; a NUL is refused. */
function readName(value: string): Reading {
  const stripped = stripPython(value);
  if (stripped === '') return undefined;
  if (stripped.includes('\0')) return { error: 'Null characters are not allowed.' };
  return { value: encoder.encode(searchText(stripped)) };
}

/** A ChoiceField: exactly one of the choices, not stripped. */
function readChoice(value: string, choices: readonly string[]): Reading {
  if (!choices.includes(value)) return { error: `Select a valid choice. ${value} is not one of the available choices.` };
  return { value };
}
