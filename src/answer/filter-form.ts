import { MAX_ID_DIGITS } from '../contract.ts';
import { jsonText } from '../json-text.ts';
import { hasFraction, integerDigits, pythonDecimal, stripPython } from '../routing/python-text.ts';
import { searchText } from '../bundle/search-text.ts';

/**
 * The eight filters read as django-filter's form reads them (contract section 9): each its
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

type Reading = { value: string | number | Uint8Array | null } | { error: string } | undefined;

/** The form's fields in its order: the parameter, what it sets, and how its value is read. */
const FIELDS: readonly [param: string, key: keyof ClientCriteria, read: (value: string, choices: Choices) => Reading][] = [
  ['id', 'id', readNumber],
  ['client_name', 'clientName', readName],
  ['client_state', 'state', (value, choices) => readChoice(value, choices.states)],
  ['client_country', 'country', (value, choices) => readChoice(value, choices.countries)],
  ['client_ppb_state', 'ppbState', (value, choices) => readChoice(value, choices.states)],
  ['client_ppb_country', 'ppbCountry', (value, choices) => readChoice(value, choices.countries)],
  ['registrant_id', 'registrantId', readNumber],
  ['registrant_name', 'registrantName', readName],
];

export function readFilters(values: ReadonlyMap<string, string>, choices: Choices): { criteria: ClientCriteria } | { errorBody: string } {
  const criteria: Record<string, string | number | Uint8Array | null> = {};
  const errors: Record<string, string[]> = {};
  for (const [param, key, read] of FIELDS) {
    const value = values.get(param);
    if (value === undefined || value === '') continue;
    const reading = read(value, choices);
    if (reading === undefined) continue;
    if ('error' in reading) errors[param] = [reading.error];
    else criteria[key] = reading.value;
  }
  if (Object.keys(errors).length > 0) return { errorBody: jsonText(errors) };
  return { criteria: criteria as ClientCriteria };
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
