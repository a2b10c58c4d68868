import {
  errorVariant,
  type ChoiceStep,
  type FiltersStep,
  type MethodStep,
  type PageSizeStep,
  type PageStep,
  type RewriteMap,
  type Route,
  type ServedFilter,
  type Step,
} from '../../plan/rewrite-map.ts';
import { fillFile } from '../route-parts.ts';
import { translationOf, type StepKind, type StepOf } from '../step-translation.ts';
import { ANY_NUMBER, ANY_VALUE, ID, OTHER_VALUE, errorRule, literal, rule, type Condition } from './syntax.ts';

/**
 * A route's steps as nested blocks of rules. A Netlify rule can only ask that query parameters be
 * present, each with a given value or with any value (`name=:placeholder`); it cannot ask that one be
 * absent. So each step is translated in the map's order: a step that selects a part of the file (a
 * choice, a filter, the page) gives each value it serves its own block, holding the rules of the steps
 * after it, then any other value is the step's error, then comes the block for the parameter left out.
 * A step that only rejects (page_size) puts its error rules before the rules of the steps after it.
 * More specific rules always come first.
 */

/** Where a step is translated: the rules so far ask `conditions` and have filled `parts` of the file. */
interface Block {
  map: RewriteMap;
  from: string;
  conditions: Condition[];
  parts: Record<string, string>;
  /** The page that `last` names here: the list's own, or a filter's value's (see filterRules). */
  last: number | undefined;
  /** The rules of the steps after this one, for a request that passes it with these conditions and parts. */
  next(conditions: Condition[], parts: Record<string, string>, last?: number): string[];
}

type Translation<S extends Step> = (step: S, block: Block) => string[];

/** One translation for each kind of step; a kind missing here is an error at emit time. */
const TRANSLATIONS: { [K in StepKind]: Translation<StepOf<K>> } = {
  method: methodRules,
  choice: choiceRules,
  pageSize: pageSizeRules,
  filters: filterRules,
  page: pageRules,
};

/** A route's rules: its steps translated in order, each holding the rules of the steps after it. */
export function stepRules(map: RewriteMap, route: Route, from: string): string[] {
  const walk = (index: number, conditions: Condition[], parts: Record<string, string>, last: number | undefined): string[] => {
    const step = route.steps[index];
    // Every step passed: the file, its parts filled by the steps and `{id}` by the path.
    if (step === undefined) return [rule(from, conditions, `/${fillFile(route.file, { ...parts, id: ID })}`, 200)];
    const block: Block = { map, from, conditions, parts, last, next: (more, filled, page = last) => walk(index + 1, more, filled, page) };
    return translationOf<Translation<Step>>('netlify', route, TRANSLATIONS, step)(step, block);
  };
  return walk(0, [], {}, undefined);
}

/**
 * A rule cannot test the method (gaps.methods), so the step adds no rule. Nor has the missing slash
 * that the map answers after a step (`paths.missingSlash`) any rule: Netlify matches rules with or
 * without the final slash (gaps.missingSlash).
 */
function methodRules(_step: MethodStep, block: Block): string[] {
  return block.next(block.conditions, block.parts);
}

/**
 * A block for each value the map serves (the empty value included, as `name=`), then any other value
 * (`name=:value`) is the step's error, then the block for the parameter left out, which the map serves
 * as the empty value (or answers with the error).
 */
function choiceRules(step: ChoiceStep, block: Block): string[] {
  const error = block.map.errors[step.error];
  const absent = step.choices[''];
  return [
    ...Object.entries(step.choices).flatMap(([value, part]) =>
      block.next([...block.conditions, [step.param, literal(step.param, value)]], { ...block.parts, [step.sets]: part }),
    ),
    errorRule(block.from, [...block.conditions, [step.param, ANY_VALUE]], error),
    ...(absent === undefined ? [errorRule(block.from, block.conditions, error)] : block.next(block.conditions, { ...block.parts, [step.sets]: absent })),
  ];
}

/** Each whole number from 1 to `served - 1` is the error (any other value is ignored: no rule). */
function pageSizeRules(step: PageSizeStep, block: Block): string[] {
  const error = block.map.errors[step.error];
  return [
    ...range(1, step.served - 1).map((size) => errorRule(block.from, [...block.conditions, [step.param, String(size)]], error)),
    ...block.next(block.conditions, block.parts),
  ];
}

/**
 * In the map's order: a rejected parameter with any value is the error naming it; two served filters
 * with any values are the combination's error (pairs in the map's order, so three filters name the
 * first two); then each served filter: empty (`name=`), no filter; with any value, the value passed on
 * into its folder (`registrant_id=:value` to `registrant_id=:value/`); then no filter at all. A rule
 * can neither read a number nor test a choice, so a value that names no folder (a spelling other than
 * the canonical one, an invalid value, a value no client has) ends in the 404 page (gaps.filters).
 * `last` in a value's folder is its first page: a value whose lists have more pages is answered
 * before these blocks (last-page-rules.ts). An empty placeholder value matches like any other, so an
 * empty parameter beside a real one is rejected with it (gaps.rejections, gaps.filters).
 */
function filterRules(step: FiltersStep, block: Block): string[] {
  const error = block.map.errors[step.error];
  const combined = block.map.errors[step.combinedError];
  const unfiltered = { ...block.parts, [step.sets]: '' };
  return [
    ...step.rejected.map((name) => errorRule(block.from, [...block.conditions, [name, ANY_VALUE]], errorVariant(error, name))),
    ...filterPairs(step.served).map(([first, second]) =>
      errorRule(block.from, [...block.conditions, [first.param, ANY_VALUE], [second.param, OTHER_VALUE]], errorVariant(combined, `${first.param}&${second.param}`)),
    ),
    ...step.served.flatMap((filter) => [
      ...block.next([...block.conditions, [filter.param, '']], unfiltered),
      ...block.next([...block.conditions, [filter.param, ANY_VALUE]], { ...block.parts, [step.sets]: valueFolder(filter, ANY_VALUE) }, 1),
    ]),
    ...block.next(block.conditions, unfiltered),
  ];
}

/** Every two served filters, in the map's order: the first pair a request has names its error. */
export function filterPairs(served: readonly ServedFilter[]): [ServedFilter, ServedFilter][] {
  return served.flatMap((first, at) => served.slice(at + 1).map((second): [ServedFilter, ServedFilter] => [first, second]));
}

/** The folder of a filter's value, the value given as a literal or a placeholder. */
export function valueFolder(filter: ServedFilter, value: string): string {
  if (!filter.folder.includes('{value}')) throw new Error(`netlify: the folder of ${filter.param} does not hold its value: ${filter.folder}`);
  return filter.folder.replace('{value}', value);
}

/**
 * The alias of the last page, then the first page's spellings (empty, `1`), then any other value passed
 * on as the page number, then the parameter left out (the first page). Page 1 has a file name of its
 * own (`firstFile`), so `page=1` must come before the number is passed on into `otherFile`. A value
 * that names no page written is a rewrite to a file that does not exist: the 404 page (gaps.pages).
 */
function pageRules(step: PageStep, block: Block): string[] {
  const given = (value: string, page: number | string) =>
    block.next([...block.conditions, [step.param, value]], { ...block.parts, [step.sets]: pageFile(step, page) });
  return [
    ...given(literal(step.param, step.lastAlias), block.last ?? step.last),
    ...given('', 1),
    ...given('1', 1),
    ...given(ANY_NUMBER, ANY_NUMBER),
    ...block.next(block.conditions, { ...block.parts, [step.sets]: pageFile(step, 1) }),
  ];
}

/** The file of a page: page 1's own name, any other number (or the placeholder) in `otherFile`. */
export function pageFile(step: PageStep, page: number | string): string {
  return page === 1 ? step.firstFile : step.otherFile.replace('{n}', String(page));
}

export function range(first: number, last: number): number[] {
  return Array.from({ length: Math.max(0, last - first + 1) }, (_, index) => first + index);
}
