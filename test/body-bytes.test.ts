import { describe, expect, it } from 'vitest';
import { BodyBytes } from '../src/produce/body-bytes.ts';
import { assemblePage, pageParts } from '../src/render/bodies.ts';

describe('BodyBytes', () => {
  const head = pageParts(3, '"https://m.example.org/api/v1/clients/?page=2"', 'null', []).head;

  it('writes a page from its parts as the UTF-8 bytes of the assembled page', () => {
    const bytes = new BodyBytes();
    for (const results of [[], ['{"id":1}'], ['{"id":1,"name":"Zoë"}', '{"id":2,"name":"北京"}', '{"id":3}']]) {
      const parts = { head, results };
      expect(bytes.page(parts, false).toString('utf8')).toBe(assemblePage(parts));
      expect(Buffer.compare(bytes.page(parts, false), Buffer.from(assemblePage(parts), 'utf8'))).toBe(0);
    }
  });

  it('copies ASCII parts as Latin-1, the same bytes', () => {
    const parts = { head, results: ['{"id":1,"name":"A"}', '{"id":2,"name":"B"}'] };
    expect(Buffer.compare(new BodyBytes().page(parts, true), Buffer.from(assemblePage(parts), 'utf8'))).toBe(0);
  });

  it('grows past its first megabyte, for a page of three-byte characters', () => {
    const wide = `{"name":"${'北'.repeat(200_000)}"}`;
    const parts = { head, results: [wide, wide] };
    const bytes = new BodyBytes();
    expect(bytes.page(parts, false).toString('utf8')).toBe(assemblePage(parts));
    expect(bytes.text(wide, false).toString('utf8')).toBe(wide);
  });
});
