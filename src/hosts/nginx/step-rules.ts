import type { ChoiceStep, FiltersStep, MethodStep, PageSizeStep, PageStep, Step } from '../../plan/rewrite-map.ts';
import { errorVariant } from '../../plan/rewrite-map.ts';
import { choiceRules, escapeRegex, filledValuePattern, numberRangePattern, pageRules } from '../query-patterns.ts';
import { translationOf, type RouteContext, type StepKind, type StepOf } from '../step-translation.ts';
import { identifier } from '../route-parts.ts';
import { literal, mapBlock, quote, rejectedMap, returnIf } from './syntax.ts';

/**
 * The steps of the map's routes in nginx's syntax, one function for each kind: `map` blocks (http
 * level) that read the query into variables, and `if (...) { return ... }` lines in the route's
 * location that answer the step's error.
 */

/** What a step adds: `map` blocks (http level), lines of the location in step order, parts of the file name. */
export interface StepRules {
  maps: string[];
  checks: string[];
  parts: Record<string, string>;
}

/** One translation for each kind of step; a kind missing here stops the emit. */
const STEP_RULES: { [K in StepKind]: (context: RouteContext, step: StepOf<K>) => StepRules } = {
  method: methodRules,
  choice: choiceStepRules,
  pageSize: pageSizeRules,
  filters: filtersRules,
  page: pageStepRules,
};

/** One step in nginx's syntax, by kind. */
export function stepRules(context: RouteContext, step: Step): StepRules {
  return translationOf<(context: RouteContext, step: Step) => StepRules>('nginx', context.route, STEP_RULES, step)(context, step);
}

/**
 * A method not allowed: the error, naming the method. It sits in the route's locations, after path
 * matching, because an unknown path is a 404 whatever the method. nginx accepts only methods made of
 * capital letters, `_` and `-`, so the name is safe inside the JSON text.
 */
function methodRules({ map }: RouteContext, step: MethodStep): StepRules {
  const methods = `^(?:${step.allowed.map(escapeRegex).join('|')})$`;
  return { maps: [], checks: returnIf(`$request_method !~ ${quote(methods)}`, map.errors[step.error], { method: '$request_method' }), parts: {} };
}

/** A choice: the part its value selects, and whether the value is one of the choices. */
function choiceStepRules({ map, route, name, query }: RouteContext, step: ChoiceStep): StepRules {
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
function pageSizeRules({ map, route, name, query }: RouteContext, step: PageSizeStep): StepRules {
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

/** The first rejected parameter (in the map's order) given a value: the step's error, in its variant for that name. */
function filtersRules({ map, route, name, query }: RouteContext, step: FiltersStep): StepRules {
  const rejected = `${name}_filter_rejected`;
  const values = step.rejected.map((param) => `&\${${queryVariable(query, param)}}`).join('');
  const rules = step.rejected.map((param, index) => ({ pattern: filledValuePattern(index), part: literal(param) }));
  return {
    maps: [`# ${route.name}: the first of these parameters given a value is ${step.error}.`, ...mapBlock(quote(values), rejected, '', rules)],
    checks: step.rejected.flatMap((param) => returnIf(`$${rejected} = ${quote(param)}`, errorVariant(map.errors[step.error], param))),
    parts: {},
  };
}

/** The page: the file its value names (a page past the end names a missing file), or the step's error. */
function pageStepRules({ map, route, name, query }: RouteContext, step: PageStep): StepRules {
  const part = `${name}_${identifier(step.sets)}`;
  const rules = pageRules({ ...step, firstFile: literal(step.firstFile), otherFile: literal(step.otherFile) }, `${part}_d`, (group) => `\${${group}}`);
  return {
    maps: [
      `# ${route.name}: the ${step.param} parameter selects {${step.sets}}: absent or empty is 1, "${step.lastAlias}" is ${step.last}; any other value is ${step.error}.`,
      ...mapBlock(`$${queryVariable(query, step.param)}`, part, '', rules),
      ...rejectedMap(`$${queryVariable(query, step.param)}`, `${part}_rejected`, rules),
    ],
    checks: returnIf(`$${part}_rejected`, map.errors[step.error]),
    parts: { [step.sets]: `\${${part}}` },
  };
}

function queryVariable(query: Map<string, string>, param: string): string {
  const variable = query.get(param);
  if (variable === undefined) throw new Error(`nginx: no variable for the query parameter ${param}`);
  return variable;
}
