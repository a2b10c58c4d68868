import { describe, expect, it } from 'vitest';
import { decimalInteger } from '../../src/routing/filter-values.ts';
import { NUMBER_SPELLINGS } from '../../src/routing/number-spellings.ts';

/**
 * The description of a number's spellings that the rule hosts translate (nginx, Caddy, Apache, Vercel)
 * says what the router reads: asked of `decimalInteger` itself, character by character.
 */
describe('the spellings of a number that rule hosts read', () => {
  const read = { spaces: [] as string[], separators: [] as string[], digits: Array.from({ length: 10 }, () => [] as string[]) };
  for (let code = 0; code <= 0x10ffff; code++) {
    if (code >= 0xd800 && code < 0xe000) continue;
    const char = String.fromCodePoint(code);
    const between = decimalInteger(`1${char}1`, 4);
    if (between === '11') read.separators.push(char);
    else if (between === undefined && decimalInteger(`${char}1${char}`, 4) === '1') read.spaces.push(char);
    const after = decimalInteger(`1${char}`, 4);
    if (code >= 0x80 && after !== undefined && /^1[0-9]$/.test(after)) read.digits[Number(after[1])]!.push(char);
  }

  it('trims around a number the white space the router trims, and no other character', () => {
    expect(NUMBER_SPELLINGS.spaces).toEqual(read.spaces);
  });

  it("writes that white space as the router's character class", () => {
    const spaceClass = new RegExp(`^[${NUMBER_SPELLINGS.spaceClass}]$`);
    const matched = read.spaces.concat(read.separators, ['1', 'a', '\u200b', '\ufeff']).filter((char) => spaceClass.test(char));
    expect(matched).toEqual(read.spaces);
  });

  it('drops anywhere in a number the separators the router drops', () => {
    expect(NUMBER_SPELLINGS.separators).toEqual(read.separators);
  });

  it('reads the digits of other scripts as the router does, in code point order', () => {
    expect(NUMBER_SPELLINGS.digits).toEqual(read.digits);
  });

  it("names the sign, leading zero and point of the router's grammar", () => {
    const { plus, minus, zero, point } = NUMBER_SPELLINGS;
    expect(decimalInteger(`${plus}${zero}${zero}7${point}9`, 4)).toBe('7');
    expect(decimalInteger(`${minus}${zero}7${point}9`, 4)).toBe('-7');
    expect(decimalInteger(`${minus}${zero}${point}5`, 4)).toBe('0');
    expect(decimalInteger(`${point}5`, 4)).toBe('0');
  });
});
