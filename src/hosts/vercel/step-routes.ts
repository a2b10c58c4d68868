import {
  errorVariant,
  type ChoiceStep,
  type ErrorAnswer,
  type FiltersStep,
  type MethodStep,
  type PageSizeStep,
  type PageStep,
  type RewriteMap,
  type Step,
} from '../../plan/rewrite-map.ts';
import { escapeRegex } from '../query-patterns.ts';
import type { StepKind, StepOf } from '../step-translation.ts';
import { ID, numberRange } from './patterns.ts';
import { VALUE, splitKeys, valueForms, type ValueForm } from './value-forms.ts';

/**
 * Each kind of step of the map as Vercel routes (vercel.ts puts them together): the error routes a
 * step answers, and the ways through it, each a set of `has` and `missing` conditions over the query
 * and the parts of the file name they fill. A `has` item without a value needs the parameter with a
 * non-empty value; one with a value needs the value to match that regular expression, whose named
 * groups fill the destination (`$n`, `$v`).
 */

/** A `has` or `missing` item over the query string. */
export interface QueryCondition {
  type: 'query';
  key: string;
  value?: string;
}

/** One of Vercel's routes (the Build Output API's `Source` route, which vercel.json's `routes` share). */
export interface VercelRoute {
  src: string;
  dest?: string;
  headers?: Record<string, string>;
  status?: number;
  continue?: boolean;
  /** A `dest` that does not exist goes on through the routes after it, with the rewritten path. */
  check?: boolean;
  caseSensitive?: boolean;
  has?: QueryCondition[];
  missing?: QueryCondition[];
}

/** Requests that pass the steps so far one way: the conditions that say so and the parts of the file they fill. */
export interface Selection {
  has: QueryCondition[];
  missing: QueryCondition[];
  parts: Record<string, string>;
  /** The filter this way reads, and in which form: the page step reads its values' last pages. */
  filter?: FilterInUse;
}

export interface FilterInUse {
  param: string;
  form: ValueForm;
  lastPages: Record<string, number>;
}

/** A step translated: its error routes, and every way through the steps up to and including it. */
export interface Translated {
  errors: VercelRoute[];
  selections: Selection[];
}

type Translation<S extends Step> = (step: S, map: RewriteMap, src: string, before: Selection[]) => Translated;

/** The named group of the page number, as the destinations use it (`$n`; the path's id is `$id`). */
export const NUMBER = 'n';

/** One translation for each kind of step; a kind missing here is an error at emit time. */
export const TRANSLATIONS: { [K in StepKind]: Translation<StepOf<K>> } = {
  method: methodStep,
  choice: choiceStep,
  pageSize: pageSizeStep,
  filters: filtersStep,
  page: pageStep,
};

/** Every way through the steps so far, each continued by every way through the next step. */
function combine(before: Selection[], after: Selection[]): Selection[] {
  return before.flatMap((first) =>
    after.map((then) => ({
      has: [...first.has, ...then.has],
      missing: [...first.missing, ...then.missing],
      parts: { ...first.parts, ...then.parts },
      ...(first.filter ?? then.filter ? { filter: first.filter ?? then.filter } : {}),
    })),
  );
}

/** Every answer of a route is a file, which Vercel answers only to GET and HEAD (gaps.methods): no route. */
function methodStep(_step: MethodStep, _map: RewriteMap, _src: string, before: Selection[]): Translated {
  return { errors: [], selections: before };
}

/**
 * A value the map does not serve is the error; so is the parameter left out (or empty, which `has`
 * does not count as present) when the map does not serve the empty value. The ways through: the
 * empty value, if served; the others in one way that copies the value into its part, when every
 * value names its part alike (`format=api/` for `api`), else one way for each. A way is a route for
 * every way through the other steps, and Vercel deploys ROUTE_LIMIT routes at most.
 */
function choiceStep(step: ChoiceStep, map: RewriteMap, src: string, before: Selection[]): Translated {
  const error = map.errors[step.error];
  const served = Object.keys(step.choices).filter((value) => value !== '');
  const errors = [
    errorRoute(src, error, {
      has: [query(step.param)],
      ...(served.length > 0 ? { missing: [query(step.param, `^(?:${served.map(escapeRegex).join('|')})$`)] } : {}),
    }),
  ];
  if (step.choices[''] === undefined) errors.push(errorRoute(src, error, { missing: [query(step.param)] }));
  const each = (values: string[]) => values.map((value) => ({ ...selects(step.param, value), parts: { [step.sets]: step.choices[value]! } }));
  const ways = [...each(Object.hasOwn(step.choices, '') ? [''] : []), ...(copiedChoice(step, served) ?? each(served))];
  return { errors, selections: combine(before, ways) };
}

/** The values as one way whose named group (the parameter's letters and digits) fills `prefix$group suffix`, if every part is so made. */
function copiedChoice(step: ChoiceStep, values: string[]): Selection[] | undefined {
  const group = step.param.replace(/[^A-Za-z0-9]/g, '');
  const [first] = values;
  if (first === undefined || !/^[A-Za-z]/.test(group) || [ID, NUMBER, VALUE].includes(group)) return undefined;
  const at = step.choices[first]!.indexOf(first);
  if (at < 0) return undefined;
  const prefix = step.choices[first]!.slice(0, at);
  const suffix = step.choices[first]!.slice(at + first.length);
  if (values.some((value) => step.choices[value] !== `${prefix}${value}${suffix}`)) return undefined;
  const pattern = `^(?<${group}>${values.map(escapeRegex).join('|')})$`;
  return [{ has: [query(step.param, pattern)], missing: [], parts: { [step.sets]: `${prefix}$${group}${suffix}` } }];
}

/** A whole number from 1 to `served - 1` (leading zeros allowed) is the error; any other value is ignored. */
function pageSizeStep(step: PageSizeStep, map: RewriteMap, src: string, before: Selection[]): Translated {
  if (step.served <= 1) return { errors: [], selections: before };
  return { errors: [errorRoute(src, map.errors[step.error], { has: [query(step.param, `^0*(?:${numberRange(1, step.served - 1)})$`)] })], selections: before };
}

/**
 * In the map's order: a rejected parameter with a value is the error naming it; two served filters
 * with values are the combined error naming the first two (pairs in the map's order, so the first
 * route that matches names them); a served filter whose value no form reads is its own error (the
 * variant of its name: a fixed body, as a file cannot echo the value). The ways through: no served
 * filter with a value (the list itself), or one filter read in one of its forms, its folder filled
 * from the captured value.
 */
function filtersStep(step: FiltersStep, map: RewriteMap, src: string, before: Selection[]): Translated {
  const variant = (error: keyof RewriteMap['errors'], key: string) => errorVariant(map.errors[error], key);
  const filters = step.served.map((filter) => ({ filter, forms: valueForms(filter, map.paths.idDigits) }));
  const errors = [
    ...step.rejected.map((name) => errorRoute(src, variant(step.error, name), { has: [query(name)] })),
    ...step.served.flatMap((first, at) =>
      step.served.slice(at + 1).map((second) => errorRoute(src, variant(step.combinedError, `${first.param}&${second.param}`), { has: [query(first.param), query(second.param)] })),
    ),
    ...filters.map(({ filter, forms }) =>
      errorRoute(src, variant(filter.error, filter.param), { has: [query(filter.param)], missing: forms.map((form) => query(filter.param, form.pattern())) }),
    ),
  ];
  const unfiltered: Selection = { has: [], missing: step.served.map((filter) => query(filter.param)), parts: { [step.sets]: '' } };
  const filtered = filters.flatMap(({ filter, forms }) =>
    forms.map((form) => ({
      has: [query(filter.param, form.pattern())],
      missing: [],
      parts: { [step.sets]: filter.folder.replace('{value}', form.value) },
      filter: { param: filter.param, form, lastPages: filter.lastPages },
    })),
  );
  return { errors, selections: combine(before, [unfiltered, ...filtered]) };
}

/**
 * A value that is neither the alias nor a number from 1 to the last (leading zeros allowed) is the
 * error. The ways through: the alias (the last page: the list's own, or with a filter in use its
 * value's, the values grouped by last page; any other value's is 1), the number 1 (the first page's
 * own file), any other number in range (its file, the number filled in from a named group; past a
 * filtered list's last page the file does not exist), and the parameter left out or empty (the first page).
 */
function pageStep(step: PageStep, map: RewriteMap, src: string, before: Selection[]): Translated {
  const page = (value: string, part: string): Selection => ({ has: [query(step.param, value)], missing: [], parts: { [step.sets]: part } });
  const ways = [page('^0*1$', pageFile(step, 1))];
  if (step.last >= 2) ways.push(page(`^0*(?<${NUMBER}>${numberRange(2, step.last)})$`, pageFile(step, `$${NUMBER}`)));
  ways.push({ has: [], missing: [query(step.param)], parts: { [step.sets]: pageFile(step, 1) } });
  const pages = `^(?:${escapeRegex(step.lastAlias)}|0*(?:${numberRange(1, step.last)}))$`;
  return {
    errors: [errorRoute(src, map.errors[step.error], { has: [query(step.param)], missing: [query(step.param, pages)] })],
    selections: before.flatMap((way) => [...lastPageWays(step, way), ...combine([way], ways)]),
  };
}

/** The alias on one way: one route per last page its filter's values have (as many as their patterns need), then the rest. */
function lastPageWays(step: PageStep, way: Selection): Selection[] {
  const alias = query(step.param, `^${escapeRegex(step.lastAlias)}$`);
  const to = (selection: Selection, last: number | undefined): Selection => ({
    ...selection,
    has: [...selection.has, alias],
    parts: { ...selection.parts, [step.sets]: pageFile(step, last ?? 1) },
  });
  if (way.filter === undefined) return [to(way, step.last)];
  const { param, form, lastPages } = way.filter;
  const byLast = new Map<number, string[]>();
  for (const [value, last] of Object.entries(lastPages)) {
    const key = form.key(value);
    if (key !== undefined) byLast.set(last, [...(byLast.get(last) ?? []), key]);
  }
  const groups = [...byLast].flatMap(([last, keys]) =>
    splitKeys(form, keys).map((run) => to({ ...way, has: way.has.map((item) => (item.key === param ? query(param, form.pattern(run)) : item)) }, last)),
  );
  // Any other value: its list has one page, or none (its first page is then the map's empty list).
  return [...groups, to(way, undefined)];
}

function pageFile(step: PageStep, page: number | string): string {
  return page === 1 ? step.firstFile : step.otherFile.replace('{n}', String(page));
}

/** The conditions for a parameter that selects `value` (`""`: left out or empty). */
function selects(name: string, value: string): { has: QueryCondition[]; missing: QueryCondition[] } {
  return value === '' ? { has: [], missing: [query(name)] } : { has: [query(name, `^${escapeRegex(value)}$`)], missing: [] };
}

export function query(key: string, value?: string): QueryCondition {
  return value === undefined ? { type: 'query', key } : { type: 'query', key, value };
}

export function rule(src: string, dest: string, has: QueryCondition[], missing: QueryCondition[]): VercelRoute {
  return { src, dest, caseSensitive: true, ...(has.length > 0 ? { has } : {}), ...(missing.length > 0 ? { missing } : {}) };
}

export function errorRoute(src: string, answer: ErrorAnswer, conditions: { has?: QueryCondition[]; missing?: QueryCondition[] } = {}): VercelRoute {
  return { ...rule(src, `/${answer.file}`, conditions.has ?? [], conditions.missing ?? []), status: answer.status };
}
