import type { ChoiceStep, MethodStep, PageSizeStep, PageStep, Step } from '../../plan/rewrite-map.ts';
import { choiceRules, escapeRegex, numberRangePattern, oneOfPattern, pageRules } from '../query-patterns.ts';
import { translationOf, type StepKind, type StepOf } from '../step-translation.ts';
import { identifier } from '../route-parts.ts';
import { filtersRules } from './filter-rules.ts';
import { queryVariable, type StepContext, type StepRules } from './rule-context.ts';
import { exactMapBlock, literal, mapBlock, quote, rejectedMap, returnIf } from './syntax.ts';

/**
 * The steps of the map's routes in nginx's syntax, one function for each kind: `map` blocks (http
 * level) that read the query into variables, and `if (...) { return ... }` lines in the route's
 * location that answer the step's error.
 */

/** One translation for each kind of step; a kind missing here stops the emit. */
const STEP_RULES: { [K in StepKind]: (context: StepContext, step: StepOf<K>) => StepRules } = {
  method: methodRules,
  choice: choiceStepRules,
  pageSize: pageSizeRules,
  filters: filtersRules,
  page: pageStepRules,
};

/** One step in nginx's syntax, by kind. */
export function stepRules(context: StepContext, step: Step): StepRules {
  return translationOf<(context: StepContext, step: Step) => StepRules>('nginx', context.route, STEP_RULES, step)(context, step);
}

/**
 * A method not allowed: the error, naming the method. It sits in the route's locations, after path
 * matching, because an unknown path is a 404 whatever the method. nginx accepts only methods made of
 * capital letters, `_` and `-`, so the name is safe inside the JSON text.
 */
function methodRules({ map }: StepContext, step: MethodStep): StepRules {
  const methods = `^(?:${step.allowed.map(escapeRegex).join('|')})$`;
  return { maps: [], checks: returnIf(`$request_method !~ ${quote(methods)}`, map.errors[step.error], { method: '$request_method' }), parts: {} };
}

/** A choice: the part its value selects, and whether the value is one of the choices. */
function choiceStepRules({ map, route, name, query }: StepContext, step: ChoiceStep): StepRules {
  const part = `${name}_${identifier(step.sets)}`;
  const rules = choiceRules(step).map((rule) => ({ ...rule, part: literal(rule.part) }));
  return {
    maps: [
      `# ${route.name}: the ${step.param} parameter selects {${step.sets}}; any other value is ${step.error}.`,
      ...mapBlock(`$${queryVariable(query, step.param)}`, part, '', rules),
      ...rejectedMap(`$${queryVariable(query, step.param)}`, `${part}_rejected`, rules),
    ],
    checks: returnIf(`$${part}_rejected`, map.errors[step.error]),
    parts: { [step.sets]: `\${${part}}` },
  };
}

/** A page size the mirror cannot serve, a whole number from 1 to `served - 1`: the step's error. */
function pageSizeRules({ map, route, name, query }: StepContext, step: PageSizeStep): StepRules {
  const rejected = `${name}_${identifier(step.param)}_rejected`;
  return {
    maps: [
      `# ${route.name}: ${step.param} from 1 to ${step.served - 1} is ${step.error} (the mirror cannot re-paginate).`,
      ...mapBlock(`$${queryVariable(query, step.param)}`, rejected, '', [{ pattern: numberRangePattern(1, step.served - 1), part: '1' }]),
    ],
    checks: returnIf(`$${rejected}`, map.errors[step.error]),
    parts: {},
  };
}

/**
 * The page: the file its value names (a page past the end names a missing file), or the step's error.
 * `last` is the filter's last page when the filters step provides one (`''`: no filter in use, the
 * step's own). A missing first page is `firstMissing` (a value that no client has), any other the
 * route's missing file.
 */
function pageStepRules({ map, route, name, query, earlier }: StepContext, step: PageStep): StepRules {
  const part = `${name}_${identifier(step.sets)}`;
  const files = { ...step, firstFile: literal(step.firstFile), otherFile: literal(step.otherFile) };
  const lastFile = `${part}_last`;
  const lastRule = oneOfPattern([step.lastAlias]);
  const rules = pageRules(files, `${part}_d`, (group) => `\${${group}}`).map((rule) =>
    rule.pattern === lastRule && earlier.lastPage !== undefined ? { ...rule, part: `\${${lastFile}}` } : rule,
  );
  const missing = `${part}_missing`;
  return {
    maps: [
      `# ${route.name}: the ${step.param} parameter selects {${step.sets}}: absent or empty is 1, "${step.lastAlias}" the last; any other value is ${step.error}.`,
      ...(earlier.lastPage === undefined ? [] : lastPageMap(quote(earlier.lastPage), lastFile, files, `${part}_n`)),
      ...mapBlock(`$${queryVariable(query, step.param)}`, part, '', rules),
      ...rejectedMap(`$${queryVariable(query, step.param)}`, `${part}_rejected`, rules),
      `# ${route.name}: a missing first page is ${step.firstMissing}, any other ${route.missingFile}.`,
      ...exactMapBlock(`$${part}`, missing, route.missingFile, [[files.firstFile, step.firstMissing]]),
    ],
    checks: returnIf(`$${part}_rejected`, map.errors[step.error]),
    parts: { [step.sets]: `\${${part}}` },
    missing: { expression: `\${${missing}}`, answers: [step.firstMissing, route.missingFile] },
  };
}

/** The file of the last page: the step's own without a filter (`""`), else the number the filters step gives. */
function lastPageMap(source: string, variable: string, step: PageStep, group: string): string[] {
  const file = (n: string) => (n === '1' ? step.firstFile : step.otherFile.replace('{n}', n));
  return mapBlock(source, variable, file('1'), [
    { pattern: '^$', part: file(String(step.last)) },
    { pattern: '^1$', part: file('1') },
    { pattern: `^(?P<${group}>[0-9]+)$`, part: file(`\${${group}}`) },
  ]);
}
