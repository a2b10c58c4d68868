import {
  filtersStep,
  type ChoiceStep,
  type ErrorAnswer,
  type MethodStep,
  type PageSizeStep,
  type PageStep,
  type RewriteMap,
  type Route,
  type Step,
} from '../../plan/rewrite-map.ts';
import { encodedNumberRangePattern, escapeRegex, formValuesPattern } from '../query-patterns.ts';
import { fillFile, routePathPattern } from '../route-parts.ts';
import { translationOf, type StepKind, type StepOf } from '../step-translation.ts';
import { filteredLastPageRules, filterRules } from './filter-rules.ts';
import { answerRule, errorFlags, FIRST_PAGE, fillPart, LISTLESS, readValue, routeLabel, UNESCAPE_MAP, V, when, type StepContext } from './rule-context.ts';
import { flagValue, rewriteArg, token } from './syntax.ts';

/**
 * The map's routes as mod_rewrite rules in a virtual host: the route the decoded path names, then
 * for that route each step in the map's order, one translation per step kind, then its file. What the
 * rules share (variables, the shape of a rule) is in ./rule-context.ts; the filters step is in
 * ./filter-rules.ts.
 */

const ROUTE = `${V}ROUTE`;
const ID = `${V}ID`;
const SLASH = `${V}SLASH`;
const LOCATION = `${V}LOCATION`;

type StepRules<S extends Step> = (context: StepContext, step: S) => string[];

/** One translation per step kind; a kind missing here stops the emit (a new kind is never skipped). */
const STEP_RULES: { [K in StepKind]: StepRules<StepOf<K>> } = {
  method: methodRules,
  choice: choiceRules,
  pageSize: pageSizeRules,
  filters: filterRules,
  page: pageRules,
};

export function routeRules(map: RewriteMap, root: string): string[] {
  return [...routeMatchRules(map), ...map.routes.flatMap((route) => routeStepRules(map, route, root))];
}

/** The answers of method steps whose body names the method: the site fills them in an ErrorDocument text. */
export function methodNamingAnswers(map: RewriteMap): ErrorAnswer[] {
  const names = new Set(map.routes.flatMap((route) => route.steps.flatMap((step) => (step.step === 'method' ? [step.error] : []))));
  return [...names].map((name) => map.errors[name]).filter((answer) => answer.template !== undefined);
}

/** Sets `LDA_ROUTE` to the first route whose path matches (its path missing the final `/`: also the redirect's target). */
function routeMatchRules(map: RewriteMap): string[] {
  const lines = [
    '    # The route: the first whose path matches the decoded path (runs of / read as one), or its path',
    '    # missing the final / (a redirect, once its steps say so). None: 404, whatever the method.',
  ];
  for (const route of map.routes) {
    const label = routeLabel(route);
    const pattern = (slash: boolean) =>
      rewriteArg(routePathPattern(route.path, { idGroup: 'id', idDigits: map.paths.idDigits, slash, collapse: true }));
    const [before, after] = route.path.split('{id}') as [string, string | undefined];
    const location = after === undefined ? flagValue(route.path) : `${flagValue(before)}$1${flagValue(after)}`;
    lines.push(
      `    RewriteCond %{ENV:${ROUTE}} ^$`,
      `    RewriteRule ${pattern(true)} - [E=${ROUTE}:${label}${after === undefined ? '' : `,E=${ID}:$1`}]`,
      `    RewriteCond %{ENV:${ROUTE}} ^$`,
      `    RewriteRule ${pattern(false)} - [E=${ROUTE}:${label},E=${SLASH}:missing,E=${LOCATION}:${location}]`,
    );
  }
  return [...lines, `    RewriteCond %{ENV:${ROUTE}} ^$`, `    RewriteRule ^ - ${errorFlags(map.errors.notFound)}`];
}

function routeStepRules(map: RewriteMap, route: Route, root: string): string[] {
  const context: StepContext = { map, route, root, label: routeLabel(route), parts: { id: `%{ENV:${ID}}` } };
  const lines = ['', `    # ${route.path}: its steps in the map's order, then its file.`];
  for (const step of route.steps) {
    lines.push(...translationOf<StepRules<Step>>('apache', route, STEP_RULES, step)(context, step));
    if (step.step === map.paths.missingSlash.after) lines.push(...missingSlashRules(context));
  }
  return [...lines, ...fileRules(context)];
}

function methodRules(context: StepContext, step: MethodStep): string[] {
  const answer = context.map.errors[step.error];
  const allowed = step.allowed.map(token);
  // A method whose answer the map writes as a file gets that file; any other, a text naming it.
  const variants = Object.entries(answer.variants ?? {}).filter(([method]) => !step.allowed.includes(method));
  const otherwise = answer.template === undefined ? errorFlags(answer) : `[R=${answer.status},L]`;
  return [
    `    # method: ${allowed.join(', ')} (Apache answers HEAD as GET without a body); any other is ${answer.status}, naming it.`,
    ...variants.flatMap(([method, variant]) => when(context, [`%{REQUEST_METHOD} =${token(method)}`], errorFlags(variant))),
    ...when(context, [`%{REQUEST_METHOD} ${rewriteArg(`!^(?:${allowed.map(escapeRegex).join('|')})$`)}`], otherwise),
  ];
}

function choiceRules(context: StepContext, step: ChoiceStep): string[] {
  const answer = context.map.errors[step.error];
  const value = readValue(context, step.param);
  const part = fillPart(context, step.sets);
  const values = Object.keys(step.choices);
  return [
    `    # ${step.param}: ${values.map((v) => JSON.stringify(v)).join(', ')} (absent is ""), each filling {${step.sets}}; any other is ${answer.status}.`,
    ...value.lines,
    ...when(context, [`%{ENV:${value.variable}} ${rewriteArg(`!${formValuesPattern(values)}`)}`], errorFlags(answer)),
    ...Object.entries(step.choices).flatMap(([choice, fill]) =>
      when(context, [`%{ENV:${value.variable}} ${rewriteArg(formValuesPattern([choice]))}`], `[E=${part}:${flagValue(fill)}]`),
    ),
  ];
}

function pageSizeRules(context: StepContext, step: PageSizeStep): string[] {
  const answer = context.map.errors[step.error];
  if (step.served <= 1) return [`    # ${step.param}: every value is served (${step.served} a page).`];
  const value = readValue(context, step.param);
  return [
    `    # ${step.param}: a whole number from 1 to ${step.served - 1} is ${answer.status} (the mirror cannot re-paginate); anything else is ignored.`,
    ...value.lines,
    ...when(context, [`%{ENV:${value.variable}} ${rewriteArg(encodedNumberRangePattern(1, step.served - 1))}`], errorFlags(answer)),
  ];
}

/**
 * Page 1 is the default; a number from 2 up is read percent-decoded (`int:unescape`) and captured
 * whole, leading zeros dropped; the alias comes last so that it wins, as the router reads it first.
 * A filter in use has its own last page: a number past it names a file that does not exist (the
 * route's missing-file answer, the same `Invalid page.`), and the alias looks it up
 * (./filter-rules.ts). `LDA_FIRST` marks the first page, whose missing file is `firstMissing`.
 */
function pageRules(context: StepContext, step: PageStep): string[] {
  const answer = context.map.errors[step.error];
  const value = readValue(context, step.param);
  const part = fillPart(context, step.sets);
  const [before, after] = step.otherFile.split('{n}') as [string, string | undefined];
  if (after === undefined) throw new Error(`apache: route ${context.route.name}: the page step's otherFile has no {n}: ${step.otherFile}`);
  context.firstMissing = step.firstMissing;
  const first = `[E=${part}:${flagValue(step.firstFile)},E=${FIRST_PAGE}:1]`;
  const page = (n: string | number) => (n === 1 ? first : `[E=${part}:${flagValue(before)}${n}${flagValue(after)},E=!${FIRST_PAGE}]`);
  const alias = `%{ENV:${value.variable}} ${rewriteArg(formValuesPattern([step.lastAlias]))}`;
  const filters = filtersStep(context.route);
  const unfiltered = filters === undefined ? [] : [`%{ENV:${fillPart(context, filters.sets)}} ^$`];
  return [
    `    # ${step.param}: absent or empty is 1, ${JSON.stringify(step.lastAlias)} is the last page (${step.last} unfiltered), else a number from 1 to ${step.last}`,
    `    # (leading zeros allowed); page 1 fills {${step.sets}} with ${step.firstFile}, page N with ${step.otherFile}. Any other is ${answer.status}.`,
    ...value.lines,
    ...when(
      context,
      [
        `%{ENV:${value.variable}} .`,
        `%{ENV:${value.variable}} ${rewriteArg(`!${formValuesPattern([step.lastAlias])}`)}`,
        `%{ENV:${value.variable}} ${rewriteArg(`!${encodedNumberRangePattern(1, step.last)}`)}`,
      ],
      errorFlags(answer),
    ),
    ...when(context, [], first),
    ...(step.last >= 2
      ? when(
          context,
          [`%{ENV:${value.variable}} ${rewriteArg(encodedNumberRangePattern(2, step.last))}`, `\${${UNESCAPE_MAP}:%{ENV:${value.variable}}} ^0*([0-9]+)$`],
          page('%1'),
        )
      : []),
    ...when(context, [alias, ...unfiltered], page(step.last)),
    ...(filters === undefined ? [] : filteredLastPageRules(context, filters, { label: `${step.param}=${step.lastAlias}`, condition: alias }, page)),
  ];
}

function missingSlashRules(context: StepContext): string[] {
  const { status } = context.map.paths.missingSlash;
  return [
    `    # The path missing its final /: ${status} to the path with it, the query kept as sent (NE).`,
    `    RewriteCond %{ENV:${ROUTE}} =${context.label}`,
    `    RewriteCond %{ENV:${SLASH}} =missing`,
    `    RewriteRule ^ %{ENV:${LOCATION}} [R=${status},NE,L]`,
  ];
}

/**
 * The route's file with the steps' parts; when it does not exist, the route's missing-file answer, or
 * for the first page the page step's `firstMissing` (the empty list of a value that no client has). A
 * filter's value that names no list looks up no file.
 */
function fileRules(context: StepContext): string[] {
  const { route, root } = context;
  if (/[\s"'\\$%]/.test(route.file)) throw new Error(`apache: route ${route.name}: its file cannot be written in mod_rewrite rules: ${route.file}`);
  const file = `${root}${fillFile(route.file, context.parts)}`;
  const unfilled = /\{\w+\}/.exec(file.replace(/%\{ENV:\w+\}/g, ''));
  if (unfilled !== null) throw new Error(`apache: route ${route.name}: no step fills ${unfilled[0]} of ${route.file}`);
  const missing = context.map.errors[route.missingFile];
  const listless = filtersStep(route) === undefined ? [] : [`%{ENV:${LISTLESS}} !=1`];
  const firstMissing = context.firstMissing === undefined ? undefined : context.map.errors[context.firstMissing];
  return [
    `    # The file; none: ${firstMissing === undefined ? '' : `on the first page ${firstMissing.status} (${context.firstMissing}), else `}${missing.status}.`,
    ...when(context, [...listless, `${rewriteArg(file)} -f`], `${rewriteArg(file)} [L]`),
    ...(firstMissing === undefined ? [] : when(context, [`%{ENV:${FIRST_PAGE}} =1`], answerRule(firstMissing, root))),
    ...when(context, [], errorFlags(missing)),
  ];
}
