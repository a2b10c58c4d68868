import {
  errorVariant,
  type ChoiceStep,
  type ErrorAnswer,
  type FiltersStep,
  type MethodStep,
  type PageSizeStep,
  type PageStep,
  type RewriteMap,
  type Route,
  type Step,
} from '../../plan/rewrite-map.ts';
import { generatedNotice, type HostAdapter, type HostTarget } from '../host-adapter.ts';
import { fillFile } from '../route-parts.ts';
import { translationOf, type StepKind, type StepOf } from '../step-translation.ts';

/**
 * Netlify: a `_redirects` file (rules read top to bottom, the first match wins) and a `_headers` file,
 * both written into the built folder that Netlify publishes (notes.md beside this file).
 *
 * A Netlify rule can only ask that query parameters be present, each with a given value or with any
 * value (`name=:placeholder`); it cannot ask that one be absent. So each route's steps are translated
 * in the map's order into nested blocks: a step that selects a part of the file (a choice, the page)
 * gives each value it serves its own block, holding the rules of the steps after it; then a
 * placeholder rule catches any other value (the step's error); then the block for the parameter left
 * out. A step that only rejects (page_size, filters) puts its error rules before the rules of the
 * steps after it. More specific rules always come first. Page numbers are passed on with a
 * placeholder (`page=:n` to `page=:n.json`), so a number the build did not write is a rewrite to a
 * file that does not exist: Netlify's 404 page, which is the build's `404.html` (see `gaps`).
 *
 * Rewrites (`200`) serve the page and record files; errors are rewrites to the map's error files with
 * the error's status (`... /errors/400-ordering.json 400`). The API rules are not forced: no file of the
 * build lies at an API path (they lie inside its folders), so nothing shadows them. The last rule is a
 * forced catch-all that answers any other path, built files included, with the map's JSON 404.
 */
export const netlify: HostAdapter = {
  name: 'netlify',
  summary: "Netlify's _redirects and _headers, written into the built folder that Netlify publishes",
  files: ['_redirects', '_headers'],
  publishedWithSite: true,
  gaps: {
    pages:
      "a page past the end or not a plain number gets the site's 404 page (the build's `404.html`, `{\"detail\":\"Not found.\"}`) instead of `{\"detail\":\"Invalid page.\"}`, and leading zeros (`page=02`) are not read: a rule cannot compare numbers, and a rewrite to a file that does not exist ends in the 404 page",
    rejections:
      'an empty filter (`client_name=`) may be rejected like a real one: Netlify does not document whether `name=:value` matches an empty value, and ruling it out would repeat every page rule for each combination of empty filters',
    methods: "`_redirects` rules cannot test the method, and Netlify answers other methods on its files itself (a 405 without the JSON body)",
    missingSlash:
      'Netlify normalises URLs before its rules run and matches them with or without the final slash (its docs: a rule cannot add or remove a trailing slash), so `/api/v1/clients?page=2` is answered as the list, not with a 301; repeated slashes are not read as one',
    headers:
      "Netlify ignores a custom `Allow` header (its docs list it among the headers its servers set themselves), and its 404 page (the build's `404.html`, sent as HTML, for an unknown id or page) and its own 405 carry none of the map's headers",
    repeatedParameters: 'Netlify does not document which value of a repeated parameter its rules read; they are held to the first one, not the last',
  },
  emit: (target) => [
    { name: '_redirects', text: redirectsFile(target) },
    { name: '_headers', text: headersFile(target) },
  ],
};

/** A query condition: the parameter and its value; a value starting with `:` is a placeholder. */
type Condition = [name: string, value: string];

/** Where a step is translated: the rules so far ask `conditions` and have filled `parts` of the file. */
interface Block {
  map: RewriteMap;
  from: string;
  conditions: Condition[];
  parts: Record<string, string>;
  /** The rules of the steps after this one, for a request that passes it with these conditions and parts. */
  next(conditions: Condition[], parts: Record<string, string>): string[];
}

type Translation<S extends Step> = (step: S, block: Block) => string[];

/** Placeholders of the rules: any value of a rejected parameter, any page number, the path's id. */
const ANY_VALUE = ':value';
const ANY_NUMBER = ':n';
const ID = ':id';

/** One translation for each kind of step; a kind missing here is an error at emit time. */
const TRANSLATIONS: { [K in StepKind]: Translation<StepOf<K>> } = {
  method: methodRules,
  choice: choiceRules,
  pageSize: pageSizeRules,
  filters: filterRules,
  page: pageRules,
};

function redirectsFile({ map }: HostTarget): string {
  return [
    generatedNotice(map, '#'),
    '# Rules are read top to bottom and the first that matches answers; more specific rules come first.',
    '# 200 rewrites serve the built files; errors are rewrites to the error files with their status.',
    ...map.routes.flatMap((route) => [
      '',
      `# ${route.name}, ${route.path}: ${route.steps.map(stepName).join(', ')}, then the file (the map's order).`,
      ...routeRules(map, route),
    ]),
    '',
    '# Anything else, built files included: the JSON 404 (forced, so an existing file does not shadow it).',
    rule('/*', [], `/${map.errors.notFound.file}`, map.errors.notFound.status, true),
    '',
  ].join('\n');
}

/** A step as the comments name it: by the parameter it reads, if one. */
function stepName(step: Step): string {
  return 'param' in step ? step.param : step.step;
}

/** A route's rules: its steps translated in order, each holding the rules of the steps after it. */
function routeRules(map: RewriteMap, route: Route): string[] {
  const from = route.path.replace('{id}', ID);
  const walk = (index: number, conditions: Condition[], parts: Record<string, string>): string[] => {
    const step = route.steps[index];
    // Every step passed: the file, its parts filled by the steps and `{id}` by the path.
    if (step === undefined) return [rule(from, conditions, `/${fillFile(route.file, { ...parts, id: ID })}`, 200)];
    return translationOf<Translation<Step>>('netlify', route, TRANSLATIONS, step)(step, { map, from, conditions, parts, next: (more, filled) => walk(index + 1, more, filled) });
  };
  return walk(0, [], {});
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
  for (const value of Object.keys(step.choices)) {
    if (value.startsWith(':')) throw new Error(`netlify: a rule would read the value ${JSON.stringify(value)} of ${step.param} as a placeholder`);
  }
  return [
    ...Object.entries(step.choices).flatMap(([value, part]) =>
      block.next([...block.conditions, [step.param, value]], { ...block.parts, [step.sets]: part }),
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

/** Each rejected parameter with any value is the error naming it (a rule cannot tell an empty one apart: gaps.rejections). */
function filterRules(step: FiltersStep, block: Block): string[] {
  const error = block.map.errors[step.error];
  return [
    ...step.rejected.map((name) => errorRule(block.from, [...block.conditions, [name, ANY_VALUE]], errorVariant(error, name))),
    ...block.next(block.conditions, block.parts),
  ];
}

/**
 * The alias of the last page, then the first page's spellings (empty, `1`), then any other value passed
 * on as the page number, then the parameter left out (the first page). Page 1 has a file name of its
 * own (`firstFile`), so `page=1` must come before the number is passed on into `otherFile`. A value
 * that names no page written is a rewrite to a file that does not exist: the 404 page (gaps.pages).
 */
function pageRules(step: PageStep, block: Block): string[] {
  const file = (page: number | string) => (page === 1 ? step.firstFile : step.otherFile.replace('{n}', String(page)));
  const given = (value: string, page: number | string) => block.next([...block.conditions, [step.param, value]], { ...block.parts, [step.sets]: file(page) });
  if (step.lastAlias.startsWith(':')) throw new Error(`netlify: a rule would read the page alias ${JSON.stringify(step.lastAlias)} as a placeholder`);
  return [
    ...given(step.lastAlias, step.last),
    ...given('', 1),
    ...given('1', 1),
    ...given(ANY_NUMBER, ANY_NUMBER),
    ...block.next(block.conditions, { ...block.parts, [step.sets]: file(1) }),
  ];
}

function errorRule(from: string, conditions: Condition[], answer: ErrorAnswer): string {
  return rule(from, conditions, `/${answer.file}`, answer.status);
}

/** One `_redirects` line: `from [name=value ...] to status[!]`. */
function rule(from: string, conditions: Condition[], to: string, status: number, force = false): string {
  for (const [name, value] of conditions) {
    const literal = value.startsWith(':') ? '' : value;
    // The file is split on white space, `#` starts a comment and the first `=` ends the name.
    if (/[\s#=]/.test(name) || /[\s#=]/.test(literal) || name === '') {
      throw new Error(`netlify: a rule cannot hold the query parameter ${JSON.stringify(name)}=${JSON.stringify(value)}`);
    }
  }
  if (/[\s#]/.test(to)) throw new Error(`netlify: a rule cannot rewrite to ${JSON.stringify(to)}`);
  const query = conditions.map(([name, value]) => `${name}=${value}`);
  return [from, ...query, to, `${status}${force ? '!' : ''}`].join(' ');
}

function range(first: number, last: number): number[] {
  return Array.from({ length: Math.max(0, last - first + 1) }, (_, index) => first + index);
}

/** The map's headers on every path: every answer of the site is JSON. */
function headersFile({ map }: HostTarget): string {
  return [generatedNotice(map, '#'), '/*', ...Object.entries(map.headers).map(([name, value]) => `  ${name}: ${value}`), ''].join('\n');
}
