import { clientOpening, registrantOpening, type ListPage } from '../render/bodies.ts';

/**
 * The UTF-8 bytes of the bodies a render thread writes, in one buffer that every file of the thread
 * reuses: a new buffer per file was most of the thread's memory (hundreds of megabytes of freed
 * buffers not yet given back). ASCII text (known from the store) is copied as Latin-1: the same bytes,
 * four times faster than encoding UTF-8.
 *
 * Each call returns a view of the shared buffer, valid until the next call.
 */
export class BodyBytes {
  private scratch = Buffer.allocUnsafe(1 << 20);
  /** Where the head of the last `listPage` ends in its bytes: where its first result starts. */
  headEnd = 0;
  /** Where each result of the last `listPage` ends in its bytes (at the `,` or `]` after it). */
  readonly resultEnds: number[] = [];

  /** The bytes of a whole body. */
  text(body: string, ascii: boolean): Buffer {
    this.reserve(body.length);
    return this.scratch.subarray(0, this.scratch.write(body, 0, ascii ? 'latin1' : 'utf8'));
  }

  /**
   * The bytes of a page of a list: its head, each client's body from its pieces (`clientBody`'s),
   * separated by commas, then `]}`, the same bytes as `assemblePage(listPageParts(page))`. No text is
   * made per result: a result's text (over a kilobyte) flattened and copied, three million times per
   * render thread at 134,719 records, was most of what the threads' garbage collector had to do.
   * Where the head ends is in `headEnd`, where each result ends in `resultEnds`.
   */
  listPage(page: ListPage, ascii: boolean): Buffer {
    const { head, clients, base, suffix } = page;
    // Each result's pieces beside its fields: its two ids, twice each, and the base URL twice.
    const around = 2 * (base.length + suffix.length) + 128;
    let length = head.length + clients.length * (around + 1) + 2;
    for (const client of clients) length += client.fields.length + client.registrantFields.length;
    this.reserve(length);
    const encoding = ascii ? 'latin1' : 'utf8';
    const scratch = this.scratch;
    const ends = this.resultEnds;
    ends.length = clients.length;
    let at = scratch.write(head, 0, encoding);
    this.headEnd = at;
    for (let i = 0; i < clients.length; i++) {
      const client = clients[i]!;
      if (i > 0) scratch[at++] = 0x2c; // ','
      at += scratch.write(clientOpening(base, suffix, client.id), at, encoding);
      at += scratch.write(client.fields, at, encoding);
      at += scratch.write(registrantOpening(base, suffix, client.registrantId), at, encoding);
      at += scratch.write(client.registrantFields, at, encoding);
      scratch[at++] = 0x7d; // '}'
      scratch[at++] = 0x7d;
      ends[i] = at;
    }
    scratch[at++] = 0x5d; // ']'
    scratch[at++] = 0x7d; // '}'
    return scratch.subarray(0, at);
  }

  /** Room for `units` UTF-16 units of text: three bytes each at most in UTF-8. */
  private reserve(units: number): void {
    if (units * 3 > this.scratch.length) this.scratch = Buffer.allocUnsafe(Math.max(units * 3, this.scratch.length * 2));
  }
}
