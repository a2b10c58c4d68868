import type { PageParts } from '../render/bodies.ts';

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

  /** The bytes of a whole body. */
  text(body: string, ascii: boolean): Buffer {
    this.reserve(body.length);
    return this.scratch.subarray(0, this.scratch.write(body, 0, ascii ? 'latin1' : 'utf8'));
  }

  /**
   * The bytes of a page of a list, written part after part: its head, its results separated by
   * commas, then `]}`, the same bytes as `assemblePage` gives without making the page's text first
   * (a string of tens of kilobytes per page and format, garbage as soon as it is written).
   */
  page(parts: PageParts, ascii: boolean): Buffer {
    const { head, results } = parts;
    let length = head.length + results.length + 2;
    for (const result of results) length += result.length;
    this.reserve(length);
    const encoding = ascii ? 'latin1' : 'utf8';
    const scratch = this.scratch;
    let at = scratch.write(head, 0, encoding);
    for (let i = 0; i < results.length; i++) {
      if (i > 0) scratch[at++] = 0x2c; // ','
      at += scratch.write(results[i]!, at, encoding);
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
