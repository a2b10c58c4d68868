import { jsonStringContent } from '../../json-text.ts';
import type { ErrorAnswer, FiltersStep, ServedFilter } from '../../plan/rewrite-map.ts';
import { errorVariant } from '../../plan/rewrite-map.ts';
import { encodedLiteral, filledValuePattern, oneOfPattern } from '../query-patterns.ts';
import { identifier, identifiers } from '../route-parts.ts';
import type { RouteContext } from '../step-translation.ts';
import { integerRules, trimmedValuePattern } from './number-rules.ts';
import type { StepRules } from './rule-context.ts';
import { REJECTED, mapBlock, queryPlaceholder, quote, regexOutput, respond } from './syntax.ts';

/**
 * The filters step in Caddy's syntax, judged in the map's order: a rejected parameter given a value,
 * then two served filters given values, then the one filter's value. Each served filter has a `map`
 * from its raw value to its list folder (`''` when it is not in use), so the `{filter}` part of the
 * file is the concatenation of those folders: once combinations are answered, at most one is set.
 */

/** A raw value that percent-decoding and JSON-escaping leave as it is, so a body can repeat it as sent. */
const PLAIN_VALUE = '^[A-Za-z0-9]+$';
/**
 * A decoded value that JSON text cannot write as it is (contract section 1): empty (Go's query parser
 * skips a pair it cannot read, a bad escape or a `;`), or holding a quote, a backslash, a control
 * character or a line separator; or U+FFFD, which Go's regexps also read for bytes that are not UTF-8
 * (the router reads those as U+FFFD, Caddy would send them as they are). Matched with `not`: a
 * `vars_regexp` on a placeholder first tries the text `<nil>` (no variable of that name), so a
 * pattern that could match `<nil>` would match every request.
 */
const NOT_JSON_PLAIN_TEXT = '^$|["\\\\\\x00-\\x1f\\x{2028}\\x{2029}\\x{fffd}]';

/** The placeholder of a served filter's folder, which the page step also reads (its last pages). */
export function filterFolderPlaceholder(routeName: string, param: string): string {
  return `${routeName}_filter_${identifier(param)}`;
}

export function filtersRules(context: RouteContext, step: FiltersStep): StepRules {
  const parts = [rejectedRules(context, step), combinedRules(context, step), ...step.served.map((filter) => servedRules(context, filter))];
  return {
    maps: parts.flatMap((part) => part.maps),
    matchers: parts.flatMap((part) => part.matchers),
    checks: parts.flatMap((part) => part.checks),
    parts: { [step.sets]: step.served.map((filter) => `{${filterFolderPlaceholder(context.name, filter.param)}}`).join('') },
  };
}

type Rules = Pick<StepRules, 'maps' | 'matchers' | 'checks'>;

/** The first rejected parameter (in the map's order) given a value: the step's error, in its variant for that name. */
function rejectedRules({ map, route, name, query }: RouteContext, step: FiltersStep): Rules {
  return firstFilledRules({
    comment: `\t# ${route.name}: the first of these parameters given a value is ${step.error}.`,
    placeholder: `${name}_filters_rejected`,
    query,
    params: step.rejected,
    keys: step.rejected.map((param, index) => ({ key: param, pattern: filledValuePattern(index) })),
    answer: (key) => errorVariant(map.errors[step.error], key),
  });
}

/**
 * Two or more served filters given values: the step's combined error, in its variant for the first
 * two (`a&b`). Pairs are tried in order, so the first that matches is the first two filled.
 */
function combinedRules({ map, route, name, query }: RouteContext, step: FiltersStep): Rules {
  const params = step.served.map((filter) => filter.param);
  const keys = params.flatMap((first, i) =>
    params.slice(i + 1).map((second, offset) => ({
      key: `${first}&${second}`,
      // Value i filled, then j - i - 1 values of any kind, then value j filled.
      pattern: `^(?:&[^&]*){${i}}&[^&]+(?:&[^&]*){${offset}}&[^&]`,
    })),
  );
  return firstFilledRules({
    comment: `\t# ${route.name}: two of these filters given values are ${step.combinedError}, named by the first two.`,
    placeholder: `${name}_filters_combined`,
    query,
    params,
    keys,
    answer: (key) => errorVariant(map.errors[step.combinedError], key),
  });
}

/** A map over the raw values of `params` joined as `&v0&v1...` that names the first key whose pattern matches; one answer per key. */
function firstFilledRules(rules: {
  comment: string;
  placeholder: string;
  query: Map<string, string>;
  params: string[];
  keys: { key: string; pattern: string }[];
  answer: (key: string) => ErrorAnswer;
}): Rules {
  if (rules.keys.length === 0) return { maps: [], matchers: [], checks: [] };
  const source = rules.params.map((param) => `&{${queryPlaceholder(rules.query, param)}}`).join('');
  // Outputs in letters, digits and `_`, which a `vars` matcher compares as they are.
  const names = identifiers(rules.keys.map(({ key }) => key), '');
  const matcher = (key: string) => `${rules.placeholder}_${names.get(key)!}`;
  return {
    maps: [rules.comment, ...mapBlock(source, [rules.placeholder], [''], rules.keys.map(({ key, pattern }) => ({ pattern, outputs: [names.get(key)!] })))],
    matchers: rules.keys.map(({ key }) => `\t@${matcher(key)} vars {${rules.placeholder}} ${names.get(key)!}`),
    checks: rules.keys.map(({ key }) => `\t\t\t\t${respond(`@${matcher(key)}`, rules.answer(key))}`),
  };
}

/**
 * One served filter: its raw value selects its folder (a choice as one of the choices, a number as
 * `./number-rules.ts` reads it); an empty value is no filter; anything else is the filter's error.
 * An error that names the value gets it where Caddy holds it as the router would write it (see
 * `echoRules`); elsewhere, the error's fixed body for this filter.
 */
function servedRules({ map, route, name, query }: RouteContext, filter: ServedFilter): Rules {
  const folderPlaceholder = filterFolderPlaceholder(name, filter.param);
  const rejected = `${folderPlaceholder}_rejected`;
  const raw = `{${queryPlaceholder(query, filter.param)}}`;
  const folder = (value: string) => regexOutput(filter.folder).replace('{value}', value);
  const trimmed = `${folderPlaceholder}_trimmed`;
  const [source, trim] =
    filter.values === 'number'
      ? [`{${trimmed}}`, mapBlock(raw, [trimmed], [''], [{ pattern: trimmedValuePattern(), outputs: ['${v}'] }])]
      : [raw, []];
  const valueRules =
    filter.values === 'number'
      ? integerRules(map.paths.idDigits, 'd', folder)
      : (filter.choices ?? []).map((choice) => ({ pattern: oneOfPattern([choice]), part: folder(regexOutput(choice)) }));
  const answer = map.errors[filter.error];
  const template = echoTemplate(answer, filter.param);
  const names = { name: jsonStringContent(filter.param) };
  const echo = template?.includes('{value}') ? echoRules(filter.param, rejected, raw, { ...answer, template }, names) : undefined;
  // A template that does not name the value is filled in here; one that does has only its fixed body left.
  const fixed = template !== undefined && echo === undefined ? { ...answer, template } : errorVariant(answer, filter.param);
  return {
    maps: [
      `\t# ${route.name}: the ${filter.param} filter's value selects its folder; empty is no filter, any other value is ${filter.error}.`,
      ...trim,
      ...mapBlock(source, [folderPlaceholder, rejected], ['', REJECTED], [
        { pattern: '^$', outputs: ['', ''] },
        ...valueRules.map((rule) => ({ pattern: rule.pattern, outputs: [rule.part, ''] })),
      ]),
    ],
    matchers: [...(echo?.matchers ?? []), `\t@${rejected} vars {${rejected}} ${REJECTED}`],
    checks: [...(echo?.checks ?? []), `\t\t\t\t${respond(`@${rejected}`, fixed, names)}`],
  };
}

/**
 * The answers of an error that names an invalid value, where Caddy holds the value as the router
 * would write it: the raw last value when it is letters and digits only (contract section 8 asks that
 * of every host), else Caddy's own decoded value (`{http.request.uri.query.*}`, every value joined by
 * `,`) when the parameter is given once and its value needs no JSON escape. A value with `"`, `\`,
 * a control character or a line separator would need one, which no Caddyfile rule can write.
 */
function echoRules(param: string, rejected: string, raw: string, answer: ErrorAnswer, names: Record<string, string>): Rules {
  const decoded = `{http.request.uri.query.${param}}`;
  const name = encodedLiteral(param);
  const twice = `(?:^|&)${name}(?:=[^&]*)?&(?:[^&]*&)*${name}(?:[=&]|$)`;
  return {
    maps: [],
    matchers: [
      `\t@${rejected}_plain {`,
      `\t\tvars {${rejected}} ${REJECTED}`,
      `\t\tvars_regexp ${raw} ${quote(PLAIN_VALUE)}`,
      '\t}',
      `\t@${rejected}_decoded {`,
      `\t\tvars {${rejected}} ${REJECTED}`,
      `\t\tnot vars_regexp ${decoded} ${quote(NOT_JSON_PLAIN_TEXT)}`,
      `\t\tnot vars_regexp {query} ${quote(twice)}`,
      '\t}',
    ],
    checks: [
      `\t\t\t\t${respond(`@${rejected}_plain`, answer, { ...names, value: raw })}`,
      `\t\t\t\t${respond(`@${rejected}_decoded`, answer, { ...names, value: decoded })}`,
    ],
  };
}

/**
 * The template the router fills in for this filter's error (the variant's own, else the answer's),
 * when it can name a value whole; undefined when there is none or it would cut the value short.
 */
function echoTemplate(answer: ErrorAnswer, param: string): string | undefined {
  const variant = answer.variants?.[param];
  const owner = variant?.template !== undefined ? variant : answer;
  if (owner.template === undefined || (owner.template.includes('{value}') && owner.echo !== 'whole')) return undefined;
  return owner.template;
}
