import type { ChoiceStep, ErrorAnswer, MethodStep, PageSizeStep, Step } from '../../plan/rewrite-map.ts';
import { choiceRules, numberRangePattern, type ValueRule } from '../query-patterns.ts';
import { translationOf, type RouteContext, type StepKind, type StepOf } from '../step-translation.ts';
import { identifier } from '../route-parts.ts';
import { filtersRules } from './filter-rules.ts';
import { pageStepRules } from './page-rules.ts';
import type { StepRules } from './rule-context.ts';
import { REJECTED, escapeBraces, mapBlock, queryPlaceholder, respond } from './syntax.ts';

/**
 * The steps of the map's routes in Caddy's syntax, one function for each kind: `map`s that read the
 * query into placeholders, `vars` matchers over them, and `respond` lines in the route's handler
 * that answer the step's error.
 */

/** One translation for each kind of step; a kind missing here stops the emit. */
const STEP_RULES: { [K in StepKind]: (context: RouteContext, step: StepOf<K>) => StepRules } = {
  method: methodRules,
  choice: choiceStepRules,
  pageSize: pageSizeRules,
  filters: filtersRules,
  page: pageStepRules,
};

/** One step in Caddy's syntax, by kind. */
export function stepRules(context: RouteContext, step: Step): StepRules {
  return translationOf<(context: RouteContext, step: Step) => StepRules>('caddy', context.route, STEP_RULES, step)(context, step);
}

/** A method not allowed: the error, naming the method (Caddy's `{method}`). */
function methodRules({ map, name }: RouteContext, step: MethodStep): StepRules {
  const matcher = `${name}_method_rejected`;
  return {
    maps: [],
    matchers: [`\t@${matcher} not method ${step.allowed.join(' ')}`],
    checks: [`\t\t\t\t${respond(`@${matcher}`, map.errors[step.error], { method: '{method}' })}`],
    parts: {},
  };
}

/** A choice: the part its value selects, and whether the value is one of the choices. */
function choiceStepRules({ map, route, name, query }: RouteContext, step: ChoiceStep): StepRules {
  const part = `${name}_${identifier(step.sets)}`;
  return valueStepRules({
    comment: `\t# ${route.name}: the ${step.param} parameter selects {${step.sets}}; any other value is ${step.error}.`,
    source: `{${queryPlaceholder(query, step.param)}}`,
    part,
    rules: choiceRules(step).map((rule) => ({ ...rule, part: escapeBraces(rule.part) })),
    error: map.errors[step.error],
    sets: step.sets,
  });
}

/** A page size the mirror cannot serve, a whole number from 1 to `served - 1`: the step's error. */
function pageSizeRules({ map, route, name, query }: RouteContext, step: PageSizeStep): StepRules {
  const rejected = `${name}_${identifier(step.param)}_rejected`;
  return {
    maps: [
      `\t# ${route.name}: ${step.param} from 1 to ${step.served - 1} is ${step.error} (the mirror cannot re-paginate).`,
      ...mapBlock(`{${queryPlaceholder(query, step.param)}}`, [rejected], [''], [{ pattern: numberRangePattern(1, step.served - 1), outputs: [REJECTED] }]),
    ],
    matchers: [`\t@${rejected} vars {${rejected}} ${REJECTED}`],
    checks: [`\t\t\t\t${respond(`@${rejected}`, map.errors[step.error])}`],
    parts: {},
  };
}

/** A step whose value selects a part of the file name: one map sets the part and whether the value is rejected. */
function valueStepRules(step: { comment: string; source: string; part: string; rules: ValueRule[]; error: ErrorAnswer; sets: string }): StepRules {
  const rejected = `${step.part}_rejected`;
  return {
    maps: [
      step.comment,
      ...mapBlock(step.source, [step.part, rejected], ['', REJECTED], step.rules.map((rule) => ({ pattern: rule.pattern, outputs: [rule.part, ''] }))),
    ],
    matchers: [`\t@${rejected} vars {${rejected}} ${REJECTED}`],
    checks: [`\t\t\t\t${respond(`@${rejected}`, step.error)}`],
    parts: { [step.sets]: `{${step.part}}` },
  };
}
