import { filtersStep, type PageStep } from '../../plan/rewrite-map.ts';
import { oneOfPattern, pageRules } from '../query-patterns.ts';
import { identifier } from '../route-parts.ts';
import type { RouteContext } from '../step-translation.ts';
import { filterFolderPlaceholder } from './filter-rules.ts';
import type { StepRules } from './rule-context.ts';
import { REJECTED, V, escapeBraces, mapBlock, queryPlaceholder, regexOutput, respond } from './syntax.ts';

/**
 * The page step in Caddy's syntax. Three `map`s, because the last page depends on the filter in use
 * and a regex rule's output cannot read another placeholder (only exact rules and defaults have
 * theirs filled in):
 * 1. the raw value: the page's file, a marker for the last-page alias, or rejected;
 * 2. the filter's folder: the last page's file (the unfiltered list's `last` without a filter, the
 *    filter's `lastPages` for a value that has more than one page, else page 1);
 * 3. the file of 1, with the marker replaced by the file of 2, and whether that file is the first page.
 * A page past the end names a file that does not exist: the route's missing-file answer. A first page
 * that does not exist (a filter's value that no client has) is the step's `firstMissing`.
 */

/** What map 1 gives the last-page alias: no file is named so, as every file name ends in `.json`. */
const LAST_MARKER = `${V}last`;
const YES = REJECTED;

export function pageStepRules({ map, route, name, query }: RouteContext, step: PageStep): StepRules {
  const part = `${name}_${identifier(step.sets)}`;
  const [chosen, rejected, first, last, lastFirst] = ['chosen', 'rejected', 'first', 'last', 'last_first'].map((suffix) => `${part}_${suffix}`) as [
    string,
    string,
    string,
    string,
    string,
  ];
  const file = (page: number) => (page === 1 ? step.firstFile : step.otherFile.replace('{n}', String(page)));
  const aliasPattern = oneOfPattern([step.lastAlias]);
  const valueRules = pageRules({ ...step, firstFile: regexOutput(step.firstFile), otherFile: regexOutput(step.otherFile) }, `${part}_d`, (group) => `\${${group}}`).map(
    (rule) => (rule.pattern === aliasPattern ? { ...rule, part: LAST_MARKER } : rule),
  );
  const lastPage = lastPageMap(route, name, step, last, lastFirst, file);
  return {
    maps: [
      `\t# ${route.name}: the ${step.param} parameter selects {${step.sets}}: absent or empty is 1, "${step.lastAlias}" the last page; any other value is ${step.error}.`,
      ...mapBlock(`{${queryPlaceholder(query, step.param)}}`, [chosen, rejected], ['', REJECTED], valueRules.map((rule) => ({ pattern: rule.pattern, outputs: [rule.part, ''] }))),
      ...lastPage.maps,
      `\t# ${route.name}: the page's file, "${step.lastAlias}" as the last page's, and whether it is the first page (${step.firstMissing} when it does not exist).`,
      ...mapBlock(`{${chosen}}`, [part, first], [`{${chosen}}`, ''], [
        { input: LAST_MARKER, outputs: lastPage.outputs },
        { input: step.firstFile, outputs: [escapeBraces(step.firstFile), YES] },
      ]),
    ],
    matchers: [`\t@${rejected} vars {${rejected}} ${REJECTED}`, `\t@${first} vars {${first}} ${YES}`],
    checks: [`\t\t\t\t${respond(`@${rejected}`, map.errors[step.error])}`],
    parts: { [step.sets]: `{${part}}` },
    missing: [`\t\t\t\t${respond(`@${first}`, map.errors[step.firstMissing])}`],
  };
}

/**
 * The last page's file and whether it is the first, by the folder of the filter in use (the
 * concatenation of the served filters' folders, at most one of them set): a map when the route has
 * filters, else the unfiltered list's last page as it is.
 */
function lastPageMap(
  route: RouteContext['route'],
  name: string,
  step: PageStep,
  last: string,
  lastFirst: string,
  file: (page: number) => string,
): { maps: string[]; outputs: string[] } {
  const served = filtersStep(route)?.served ?? [];
  const unfiltered = [file(step.last), step.last === 1 ? YES : ''];
  if (served.length === 0) return { maps: [], outputs: unfiltered.map(escapeBraces) };
  const source = served.map((filter) => `{${filterFolderPlaceholder(name, filter.param)}}`).join('');
  const rules = served.flatMap((filter) =>
    Object.entries(filter.lastPages).map(([value, page]) => ({
      input: filter.folder.replace('{value}', value),
      outputs: [escapeBraces(file(page)), page === 1 ? YES : ''],
    })),
  );
  return {
    maps: [
      `\t# ${route.name}: the last page of the filter's value in use (page 1 for a value not listed here), or of the unfiltered list.`,
      ...mapBlock(source, [last, lastFirst], [escapeBraces(step.firstFile), YES], [{ pattern: '^$', outputs: unfiltered.map(regexOutput) }, ...rules]),
    ],
    outputs: [`{${last}}`, `{${lastFirst}}`],
  };
}
