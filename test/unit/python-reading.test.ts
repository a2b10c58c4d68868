import { describe, expect, it } from 'vitest';
import { readFilters } from '../../src/answer/filter-form.ts';
import { orderingTerms } from '../../src/answer/ordering-terms.ts';
import { pageQuery, quotePlus, compareCodePoints } from '../../src/render/query-string.ts';
import { queryFieldCount, queryPairs } from '../../src/routing/query-pairs.ts';
import { integerDigits, pythonDecimal, pythonInt } from '../../src/routing/python-text.ts';

/**
 * Where code runs, the mirror reads a request as the live service's Python does (contract section 9).
 * The expected values below were printed by Python 3.11 itself (urllib.parse, int(), decimal).
 */
describe('a query string read as parse_qsl(keep_blank_values=True)', () => {
  it.each([
    ['a=1&b=2', [['a', '1'], ['b', '2']]],
    ['a', [['a', '']]],
    ['a=&b', [['a', ''], ['b', '']]],
    ['&&a=1&', [['a', '1']]],
    ['a+b=c+d', [['a b', 'c d']]],
    ['%7Eodd%20key=v%2Fw', [['~odd key', 'v/w']]],
    ['x=%E2%9C%93', [['x', '✓']]],
    ['x=%E2%9C', [['x', '\ufffd']]],
    ['x=%zz%4', [['x', '%zz%4']]],
    ['x=%ff%fe', [['x', '\ufffd\ufffd']]],
    ['x=%ED%A0%80', [['x', '\ufffd\ufffd\ufffd']]],
    ['=v', [['', 'v']]],
    ['a=1=2', [['a', '1=2']]],
    ['name=%C3%A9t%C3%A9', [['name', 'été']]],
    ['p=%2B7', [['p', '+7']]],
  ])('%s', (query, pairs) => expect(queryPairs(query)).toEqual(pairs));

  it('counts its fields as Django does before refusing more than 1,000: every &, empty fields too', () => {
    expect(queryFieldCount('')).toBe(1);
    expect(queryFieldCount('a=1&&b=2&')).toBe(4);
  });
});

describe('link values written as quote_plus', () => {
  it.each([
    ['a b', 'a+b'],
    ['~odd key', '~odd+key'],
    ['v/w', 'v%2Fw'],
    ['✓', '%E2%9C%93'],
    ['-name,id', '-name%2Cid'],
    ['+5', '%2B5'],
    ["!'()*", '%21%27%28%29%2A'],
    ['é', '%C3%A9'],
    ['\ufffd', '%EF%BF%BD'],
    ['a&b=c', 'a%26b%3Dc'],
    ['𝔸', '%F0%9D%94%B8'],
  ])('%s is %s', (value, quoted) => expect(quotePlus(value)).toBe(quoted));

  it('sorts names by code point, keeps repeated values in order, sets or removes page', () => {
    const pairs: [string, string][] = [['x', '\uffff'], ['b', '2'], ['page', '9'], ['a', '1'], ['a', '0'], ['x𝔸', '']];
    expect(pageQuery(pairs, 'page', 3)).toBe('a=1&a=0&b=2&page=3&x=%EF%BF%BF&x%F0%9D%94%B8=');
    expect(pageQuery(pairs, 'page', 1)).toBe('a=1&a=0&b=2&x=%EF%BF%BF&x%F0%9D%94%B8=');
    expect(compareCodePoints('\uffff', '𝔸')).toBeLessThan(0);
  });
});

describe("Python's int()", () => {
  it.each([
    ['2', 2], [' 2 ', 2], ['+2', 2], ['-1', -1], ['2_0', 20], ['٢', 2], ['1__0', undefined], ['_1', undefined], ['1_', undefined],
    ['2.0', undefined], ['', undefined], ['  ', undefined], ['0x10', undefined], ['٠٠٣', 3], ['007', 7], ['1e3', undefined],
    ['99999999999999999999', Infinity], ['\u30002\u3000', 2], ['+ 2', undefined], ['２', 2],
  ])('int(%j) is %s', (text, value) => expect(pythonInt(text)).toBe(value));
});

describe('decimal.Decimal, cut toward zero', () => {
  const read = (text: string) => {
    const number = pythonDecimal(text);
    return number === undefined ? 'invalid' : `${number.negative && integerDigits(number, 99) !== '0' ? '-' : ''}${integerDigits(number, 99) ?? 'big'}`;
  };
  it.each([
    ['7', '7'], ['007', '7'], ['7.9', '7'], ['-7.9', '-7'], ['0.7e1', '7'], ['+7', '7'], [' 7 ', '7'], ['1_000', '1000'], ['abc', 'invalid'],
    ['NaN', 'invalid'], ['Infinity', 'invalid'], ['0x10', 'invalid'], [' ', 'invalid'], ['٧', '7'], ['.5', '0'], ['5.', '5'], ['-0.5', '0'],
  ])('Decimal(%j) is %s', (text, value) => expect(read(text)).toBe(value));

  it('never writes out the digits of a huge exponent', () => {
    expect(integerDigits(pythonDecimal('1e999999999')!, 16)).toBeUndefined();
  });
});

describe('the filters read as django-filter reads them', () => {
  const choices = { states: ['TX', 'GU'], countries: ['US'] };
  const read = (query: string) => readFilters(new Map(queryPairs(query)), choices);

  it('refuses numbers above the float 1e50 and keeps those at or below it', () => {
    expect(read('id=1e400')).toEqual({ errorBody: '{"id":["Ensure this value is less than or equal to 1e+50."]}' });
    expect(read('id=100000000000000007629769841091887003294964970946561')).toEqual({ errorBody: '{"id":["Ensure this value is less than or equal to 1e+50."]}' });
    expect(read('id=100000000000000007629769841091887003294964970946560')).toEqual({ criteria: { id: null } });
    expect(read('id=-1e400')).toEqual({ criteria: { id: null } });
    expect(read('registrant_id=0.7e1')).toEqual({ criteria: { registrantId: 7 } });
  });

  it('names every bad value in one body, in the form order; empty values and white-space names filter nothing', () => {
    expect(read('registrant_name=%00&client_state=tx&id=x&client_name=+&page=2')).toEqual({
      errorBody: '{"id":["Enter a number."],"client_state":["Select a valid choice. tx is not one of the available choices."],"registrant_name":["Null characters are not allowed."]}',
    });
    expect(read('client_name=%20%20&client_state=&id=')).toEqual({ criteria: {} });
    expect(read('client_state=%20TX')).toEqual({ errorBody: '{"client_state":["Select a valid choice.  TX is not one of the available choices."]}' });
  });

  it('upper-cases a name searched, as PostgreSQL does under a libc UTF-8 locale', () => {
    const found = read('client_name=+%C3%9F%C4%B1stra%C3%9Fe+');
    expect('criteria' in found && new TextDecoder().decode(found.criteria.clientName as Uint8Array)).toBe('ßISTRAßE');
  });
});

describe('ordering read as OrderingFilter reads it', () => {
  it.each([
    [undefined, 'id'],
    ['', 'id'],
    ['bogus', 'id'],
    ['-name', '-name -id'],
    [' name , -id ', 'name -id'],
    ['-effective_date,name', '-date name id'],
    ['name,id,-name', 'name id'],
    ['--name,client_name,effective_date', 'date id'],
    ['-id,name', '-id'],
  ])('%j sorts by %s', (value, terms) => {
    expect(orderingTerms(value).map((term) => `${term.descending ? '-' : ''}${term.field}`).join(' ')).toBe(terms);
  });
});
