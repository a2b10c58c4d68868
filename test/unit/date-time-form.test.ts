import { describe, expect, it } from 'vitest';
import { readDateTime } from '../../src/answer/date-time-form.ts';

/**
 * `dt_updated_after` / `dt_updated_before` read as Django's form DateTimeField reads them (contract
 * section 10): `parse_datetime` (Python's fromisoformat, then Django's pattern), then the English
 * locale's input formats; a value without an offset is New York's wall time, through Intl.
 */
const utc = (text: string) => Date.parse(text) * 1000;

describe('a date and time read as Django reads it', () => {
  it.each([
    ['2020-01-31', '2020-01-31T05:00:00Z'], // EST: midnight in New York
    ['2020-07-04', '2020-07-04T04:00:00Z'], // EDT
    ['2020-01-31 14:05', '2020-01-31T19:05:00Z'],
    ['2020-01-31 14:05:09', '2020-01-31T19:05:09Z'],
    ['2020-01-31T14:05:09', '2020-01-31T19:05:09Z'],
    ['  2020-01-31T14:05  ', '2020-01-31T19:05:00Z'], // stripped
    ['20200131', '2020-01-31T05:00:00Z'], // fromisoformat's basic form
    ['2020-01-31T14', '2020-01-31T19:00:00Z'],
    ['2020-01-31T14:05:09Z', '2020-01-31T14:05:09Z'],
    ['2020-01-31T14:05:09+05:30', '2020-01-31T08:35:09Z'],
    ['2020-01-31T14:05:09-0500', '2020-01-31T19:05:09Z'],
    ['2020-01-31 14:05 -05', '2020-01-31T19:05:00Z'], // Django's pattern: white space before the offset
    ['2020-1-3 4:05', '2020-01-03T09:05:00Z'], // Django's pattern: one-digit fields
    ['01/31/2020', '2020-01-31T05:00:00Z'],
    ['1/31/20 14:05', '2020-01-31T19:05:00Z'],
    ['Jan 31 2020', '2020-01-31T05:00:00Z'],
    ['31 January, 2020', '2020-01-31T05:00:00Z'],
    ['2024-02-29', '2024-02-29T05:00:00Z'],
    ['2019-03-10 01:59', '2019-03-10T06:59:00Z'], // the last minute of EST before the change
    ['2019-03-10 03:00', '2019-03-10T07:00:00Z'], // the first of EDT
    ['2019-11-03 02:00', '2019-11-03T07:00:00Z'], // after the repeated hour: EST
  ])('%s is %s', (value, instant) => {
    expect(readDateTime(value)).toBe(utc(instant));
  });

  it('keeps microseconds: the first six digits of a fraction', () => {
    expect(readDateTime('2019-07-26T18:05:10.299005-04:00')).toBe(utc('2019-07-26T22:05:10Z') + 299_005);
    expect(readDateTime('2019-07-26T18:05:10.5')).toBe(utc('2019-07-26T22:05:10Z') + 500_000);
    expect(readDateTime('2019-07-26 18:05:10,25')).toBe(utc('2019-07-26T22:05:10Z') + 250_000);
    expect(readDateTime('2019-07-26T18:05:10.1234567Z')).toBe(utc('2019-07-26T18:05:10Z') + 123_456);
  });

  it.each(['', 'bad', 'yesterday', '2018-13-01', '2018-01-01T25:00', '2019-02-29', '2020-01-31T14:60', '2020-01-31 14:05:61', '0000-01-01', '2020-01-31T14:05+24:00', '31/01/2020', '2020-01-31T'])(
    '%j is no date and time',
    (value) => {
      expect(readDateTime(value)).toBeUndefined();
    },
  );
});
