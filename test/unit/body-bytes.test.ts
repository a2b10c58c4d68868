import { describe, expect, it } from 'vitest';
import { BodyBytes } from '../../src/produce/body-bytes.ts';
import { assemblePage, listPageParts, pageHead, type BodyClient, type ListPage } from '../../src/render/bodies.ts';

describe('BodyBytes', () => {
  const head = pageHead(3, '"https://m.example.org/api/v1/clients/?page=2"', 'null');
  const client = (id: number, name: string, registrant = 'R'): BodyClient => ({
    id,
    fields: `"name":${JSON.stringify(name)},"state":"TX"`,
    registrantId: 900 + id,
    registrantFields: `"name":${JSON.stringify(registrant)}`,
  });
  const page = (clients: BodyClient[], suffix = ''): ListPage => ({ head, clients, format: 0, base: 'https://m.example.org', suffix });

  it("writes a list page from its head and clients as the UTF-8 bytes of its assembled text, and says where each result ends", () => {
    const bytes = new BodyBytes();
    for (const clients of [[], [client(1, 'A')], [client(1, 'Zoë'), client(2, '北京', 'Ünïcode'), client(3, 'C')]]) {
      for (const suffix of ['', '?format=api']) {
        const text = assemblePage(listPageParts(page(clients, suffix)));
        const written = bytes.listPage(page(clients, suffix), false);
        expect(Buffer.compare(written, Buffer.from(text, 'utf8'))).toBe(0);
        // Each result's bytes, from the end of the one before (or the head) to its own end, are its body.
        let start = Buffer.byteLength(head);
        const results = listPageParts(page(clients, suffix)).results;
        expect(bytes.resultEnds).toHaveLength(clients.length);
        for (const [i, end] of bytes.resultEnds.entries()) {
          expect(written.toString('utf8', start, end)).toBe(results[i]);
          start = end + 1;
        }
      }
    }
  });

  it('copies ASCII pieces as Latin-1, the same bytes', () => {
    const ascii = page([client(1, 'A'), client(2, 'B')], '?format=json');
    expect(Buffer.compare(new BodyBytes().listPage(ascii, true), Buffer.from(assemblePage(listPageParts(ascii)), 'utf8'))).toBe(0);
  });

  it('grows past its first megabyte, for a page of three-byte characters', () => {
    const wide = page([client(1, '北'.repeat(200_000)), client(2, '京'.repeat(200_000))]);
    const bytes = new BodyBytes();
    expect(bytes.listPage(wide, false).toString('utf8')).toBe(assemblePage(listPageParts(wide)));
    const text = listPageParts(wide).results[0]!;
    expect(bytes.text(text, false).toString('utf8')).toBe(text);
  });
});
