import { createHash } from 'node:crypto';
import type { Ordering } from '../contract.ts';
import { choiceStep, listRoute, type RewriteMap } from '../plan/rewrite-map.ts';
import { pageFileName } from '../plan/site-layout.ts';
import type { SiteUnit } from '../plan/site-units.ts';
import type { PageLinks } from './link-follower.ts';
import { listOf, listShape, type ListOfPage, type Problem } from './page-rules.ts';
import type { VerifiedFacts } from './verified-facts.ts';

/** A list in one format, as far as its pages have been verified. */
export interface ListUnderWay {
  of: ListOfPage;
  pages: number;
  /** The count its first page gave. */
  count: number | undefined;
  /** How a link to one of its pages after the first resolved (`LinkFollower`). */
  pageLinks: PageLinks | undefined;
}

/**
 * The lists of the unit a render thread renders, as their pages are verified: their pages agree on
 * their count, and each list has, in every format, every page the map gives it. Which values of a
 * filter have lists is kept (`filteredValues`) for `joinVerifiedFacts` to compare across orderings.
 */
export class UnitLists {
  readonly filteredValues: VerifiedFacts['filteredValues'] = [];
  /** Pages written per folder (a list in one format) in the unit under way, and the count the first of them gave. */
  private pagesIn = new Map<string, ListUnderWay>();
  /** The unit under way, when the caller says (`startUnit`): its lists are then checked value by value. */
  private unit: SiteUnit | undefined;
  /** In a filtered unit: the value (`client_state=TX/`) whose pages `pagesIn` holds, and the values done. */
  private openValue: string | undefined;
  private doneValues: string[] = [];

  constructor(
    private readonly map: RewriteMap,
    private readonly problem: Problem,
  ) {}

  /** The list a page file belongs to, held from its first page on; undefined when the file is no list's page. */
  listOfPage(file: string): ListUnderWay | undefined {
    const folder = file.slice(0, file.lastIndexOf('/') + 1);
    let list = this.pagesIn.get(folder);
    // Which list the page belongs to, found at its first page (its folder says): this runs for every page of the build.
    const of = list?.of ?? listOf(file, this.map);
    if (of === undefined) return undefined;
    // A new value of a filtered unit lets the last one's lists go: never the list of a folder already held.
    if (this.unit?.kind === 'filtered') this.enterValue(this.unit, of);
    if (list === undefined) this.pagesIn.set(folder, (list = { of, pages: 0, count: undefined, pageLinks: undefined }));
    return list;
  }

  /** A page of `list` verified, with the count it gave (undefined when it gave none): its list's pages must share it. */
  addPage(file: string, list: ListUnderWay, count: number | undefined): void {
    list.pages++;
    if (list.pages === 1) list.count = count;
    // A filtered list's count is in no map: its pages must at least agree on it.
    else if (count !== list.count) this.problem(`${file}: count ${count}, the list's first page says ${list.count}`);
  }

  /**
   * Before the first file of a unit. A filtered unit's lists come value after value: each value's
   * lists are checked when the next value begins, so that memory holds one value's folders, not every
   * value's (tens of thousands of registrants at 300,000 records). A list unit's filters (a few
   * hundred values at most) come interleaved, so `endUnit` checks them all, as it checks everything
   * when this was not called.
   */
  startUnit(unit: SiteUnit): void {
    this.unit = unit;
    this.openValue = undefined;
    this.doneValues = [];
    this.pagesIn = new Map();
  }

  /** After the last file of a unit: its lists have every page the map gives them, in every format. */
  endUnit(unit: SiteUnit): void {
    if (unit.kind === 'list') {
      this.checkLists([''], unit.ordering);
      for (const filter of unit.filters ?? []) this.endFilter(filter, unit.ordering, []);
    }
    if (unit.kind === 'filtered') this.endFilter(unit.filter, unit.ordering, this.doneValues);
    this.unit = undefined;
    this.openValue = undefined;
    this.doneValues = [];
    this.pagesIn = new Map();
  }

  /**
   * The lists of a filter's values in one ordering, at the end of their unit: those still held are
   * checked, and which values have lists (`done` and those) is noted, for `joinVerifiedFacts` to
   * compare across orderings.
   */
  private endFilter(filter: string, ordering: Ordering, done: readonly string[]): void {
    const open = this.valuesIn(filter);
    this.checkLists(open, ordering);
    const values = [...done, ...open];
    const digest = createHash('md5').update(values.sort().join('\n')).digest('hex');
    this.filteredValues.push({ filter, ordering, values: values.length, digest });
  }

  /** A page of a filtered unit, of the list `of`: when it begins another value, the value before is checked and let go. */
  private enterValue(unit: Extract<SiteUnit, { kind: 'filtered' }>, of: ListOfPage): void {
    const value = of.filter === undefined ? '' : `${of.filter.name}=${of.filter.value}/`;
    if (value === this.openValue) return;
    if (this.openValue !== undefined) {
      const done = this.valuesIn(unit.filter);
      this.checkLists(done, unit.ordering);
      this.doneValues.push(...done);
      this.pagesIn = new Map();
    }
    this.openValue = value;
  }

  /** Each value's list (its folder part, `''` for none) has, in every format, every page the map gives it. */
  private checkLists(values: readonly string[], ordering: Ordering): void {
    const { prefix } = listShape(this.map);
    const list = listRoute(this.map);
    const formats = Object.values(choiceStep(list, 'format')?.choices ?? { '': '' });
    const orderingPart = (choiceStep(list, 'ordering')?.choices ?? { '': '' })[ordering] ?? '';
    for (const value of values) {
      for (const format of formats) {
        const folder = `${prefix}${value}${format}${orderingPart}`;
        const pages = this.pagesIn.get(folder)?.pages ?? 0;
        const last = listOf(`${folder}${pageFileName(1)}`, this.map)?.last;
        if (pages !== last) this.problem(`${folder}: ${pages} pages, the map says ${last}`);
      }
    }
  }

  /** The values of a filter whose pages this unit wrote, each as its folder part `client_state=TX/`. */
  private valuesIn(filter: string): string[] {
    const values = new Set<string>();
    for (const { of } of this.pagesIn.values()) {
      if (of.filter?.name === filter) values.add(`${filter}=${of.filter.value}/`);
    }
    return [...values];
  }
}
