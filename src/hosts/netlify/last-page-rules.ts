import { errorVariant, filtersStep, type ChoiceStep, type PageStep, type RewriteMap, type Route } from '../../plan/rewrite-map.ts';
import { fillFile } from '../route-parts.ts';
import { filterPairs, pageFile, range, valueFolder } from './step-rules.ts';
import { ANY_VALUE, OTHER_VALUE, errorRule, literal, placeholderFor, rule, type Condition } from './syntax.ts';

/**
 * `page=last` with a filter's value whose lists have more than one page (the map's `lastPages`). The
 * blocks of step-rules.ts pass a value on into its folder's name and cannot look up its last page, so
 * each such value needs rules of its own. Inside the blocks it would need one for each combination of
 * format and ordering that they spell out (20 with two formats), which for a big build is more rules
 * than Netlify advises (notes.md). So these rules come before the blocks and read format and ordering
 * into the file's name (`format=:format` to `format=:format/`): four a value, each parameter given or
 * left out, whatever the number of its pages. An unknown format then names no file: the 404 page,
 * which answers `Not found.` as the format's error does.
 *
 * Before them, for any value of such a filter with `page=last`, the errors that the map judges before
 * the value (page_size, the filters not built, two filters), so that these keep their precedence. Only
 * an unsupported or empty ordering, and an empty `format=`, are judged too late: they name no file
 * here, and get the 404 page (gaps.filters).
 */
export function lastPageRules(map: RewriteMap, route: Route, from: string): string[] {
  const filters = filtersStep(route);
  const page = route.steps.find((step): step is PageStep => step.step === 'page');
  const paged = filters?.served.filter((filter) => Object.keys(filter.lastPages).length > 0) ?? [];
  if (filters === undefined || page === undefined || paged.length === 0) return [];
  const at = route.steps.indexOf(filters);
  if (route.steps.indexOf(page) !== at + 1) throw new Error(`netlify: route ${route.name} judges a step between its filters and its page`);
  const asked: Condition = [page.param, literal(page.param, page.lastAlias)];

  const errors: string[] = [];
  let readings: Reading[] = [{ conditions: [], parts: {} }];
  for (const step of route.steps.slice(0, at)) {
    switch (step.step) {
      case 'method':
        break; // no rule can test it (gaps.methods)
      case 'choice':
        readings = readings.flatMap((before) => choiceReadings(step).map((reading) => joined(before, reading)));
        break;
      case 'pageSize': {
        const sizes = range(1, step.served - 1);
        errors.push(...sizes.flatMap((size) => paged.map((filter) => errorRule(from, [[filter.param, ANY_VALUE], [step.param, String(size)], asked], map.errors[step.error]))));
        break;
      }
      default:
        throw new Error(`netlify: route ${route.name} has a ${step.step} step before its filters, which the last pages cannot judge`);
    }
  }
  const rejected = map.errors[filters.error];
  const combined = map.errors[filters.combinedError];
  errors.push(
    ...filters.rejected.flatMap((name) => paged.map((filter) => errorRule(from, [[filter.param, ANY_VALUE], [name, OTHER_VALUE], asked], errorVariant(rejected, name)))),
    ...filterPairs(filters.served).map(([first, second]) =>
      errorRule(from, [[first.param, ANY_VALUE], [second.param, OTHER_VALUE], asked], errorVariant(combined, `${first.param}&${second.param}`)),
    ),
  );

  const lastPages = paged.flatMap((filter) =>
    Object.entries(filter.lastPages).flatMap(([value, last]) =>
      readings.map((reading) => {
        const parts = { ...reading.parts, [filters.sets]: valueFolder(filter, literal(filter.param, value)), [page.sets]: pageFile(page, last) };
        return rule(from, [...reading.conditions, [filter.param, value], asked], `/${fillFile(route.file, parts)}`, 200);
      }),
    ),
  );
  return [...errors, ...lastPages];
}

/** How the rules read the steps before the filters: conditions on the query, and the parts they fill. */
interface Reading {
  conditions: Condition[];
  parts: Record<string, string>;
}

function joined(before: Reading, reading: Reading): Reading {
  return { conditions: [...before.conditions, ...reading.conditions], parts: { ...before.parts, ...reading.parts } };
}

/**
 * A choice given (its value read into its part, which must name the value the same way for every
 * choice), then left out (the empty value's part), more specific first. The value given empty
 * (`format=`) names no folder: gaps.filters.
 */
function choiceReadings(step: ChoiceStep): Reading[] {
  const placeholder = placeholderFor(step.param);
  const part = valuePart(step, placeholder);
  const absent = step.choices[''];
  return [
    ...(part === undefined ? [] : [{ conditions: [[step.param, placeholder]] as Condition[], parts: { [step.sets]: part } }]),
    ...(absent === undefined ? [] : [{ conditions: [], parts: { [step.sets]: absent } }]),
  ];
}

/**
 * The part of a choice step with its value as the placeholder (`format=api/` -> `format=:format/`),
 * when every non-empty choice's part is its value between the same two texts; undefined when the step
 * serves no non-empty value.
 */
function valuePart(step: ChoiceStep, placeholder: string): string | undefined {
  const choices = Object.entries(step.choices).filter(([value]) => value !== '');
  const [first, firstPart] = choices[0] ?? [];
  if (first === undefined || firstPart === undefined) return undefined;
  for (let at = firstPart.indexOf(first); at >= 0; at = firstPart.indexOf(first, at + 1)) {
    const [before, after] = [firstPart.slice(0, at), firstPart.slice(at + first.length)];
    if (choices.every(([value, part]) => part === `${before}${value}${after}`)) return `${before}${placeholder}${after}`;
  }
  throw new Error(`netlify: the parts of ${step.param} do not name its values alike, so a rule cannot read a value into a file's name`);
}
