import { PAGE_SIZE, REGISTRANT_PATH_PREFIX } from '../contract.ts';
import { listPageFile } from '../plan/site-layout.ts';
import { assemblePage, pageHead, registrantBody } from './bodies.ts';
import type { RenderContext } from './list-pages.ts';
import { linkJson } from './links.ts';

/**
 * The registrants list where only files are served (contract section 10): in ascending id, every
 * page in every format, cut from the registrants in id order as they pass (25 a page, `count` in
 * all), with the links Django REST Framework writes (`format` kept, `page` set). The same bodies as
 * the answerer composes for the unfiltered list: one renderer.
 */
export class RegistrantPages {
  private page: { id: number; fields: string; ascii: number }[] = [];
  private number = 0;
  private readonly last: number;

  constructor(
    private readonly render: RenderContext,
    private readonly count: number,
  ) {
    this.last = Math.max(1, Math.ceil(count / PAGE_SIZE));
  }

  /** Adds the next registrant in id order; the pages it completes, in every format. */
  *add(registrant: { id: number; fields: string; ascii: number }): Generator<{ path: string; body: string; ascii: boolean }> {
    this.page.push(registrant);
    if (this.page.length === PAGE_SIZE) yield* this.emit();
  }

  /** The last page (the only one, empty, when there are no registrants). */
  *end(): Generator<{ path: string; body: string; ascii: boolean }> {
    if (this.page.length > 0 || this.number === 0) yield* this.emit();
    if (this.number !== this.last) throw new Error(`the registrants list has ${this.number} pages, the map says ${this.last}`);
  }

  private *emit(): Generator<{ path: string; body: string; ascii: boolean }> {
    const { render, count, last } = this;
    const number = ++this.number;
    for (const [i, format] of render.formats.entries()) {
      const pairs: [string, string][] = format === '' ? [] : [['format', format]];
      const next = linkJson(render.map.baseUrl, pairs, number + 1, last, REGISTRANT_PATH_PREFIX);
      const previous = linkJson(render.map.baseUrl, pairs, number - 1, last, REGISTRANT_PATH_PREFIX);
      const results = this.page.map((registrant) => registrantBody(render.base, render.suffixes[i]!, registrant.id, registrant.fields));
      yield { path: listPageFile(REGISTRANT_PATH_PREFIX, undefined, format, '', number), body: assemblePage({ head: pageHead(count, next, previous), results }), ascii: render.asciiBase && this.page.every((registrant) => registrant.ascii === 1) };
    }
    this.page = [];
  }
}
