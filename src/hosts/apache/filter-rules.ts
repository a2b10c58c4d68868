import { errorVariant, type FiltersStep, type ServedFilter } from '../../plan/rewrite-map.ts';
import { encodedChar, encodedDigit, escapeRegex, formValuesPattern, lastValuePattern } from '../query-patterns.ts';
import { errorFlags, FILL, fillPart, LISTLESS, readValue, UNESCAPE_MAP, when, type StepContext } from './rule-context.ts';
import { flagValue, rewriteArg, variablePart } from './syntax.ts';
import { DONE_MODE, FOR, MACHINE_LIMIT, MODE, OUT, startFlags } from './value-machine.ts';

/**
 * The filters step (contract section 8) as mod_rewrite rules: a filter the build did not write, then two
 * filters at once, then the value of the one in use, which fills `{filter}` with its folder. Values
 * are read from the raw query by patterns where one can read them, else by the machine of
 * ./value-machine.ts; an invalid choice gets the live service's body with the value in it, filled in by
 * the site file's `ErrorDocument` (see `fillFlags`).
 */
export function filterRules(context: StepContext, step: FiltersStep): string[] {
  const answer = context.map.errors[step.error];
  const part = fillPart(context, step.sets);
  const served = step.served.map((filter) => ({ filter, ...readValue(context, filter.param) }));
  return [
    ...(step.rejected.length === 0 ? [] : [`    # filters: the first of ${step.rejected.join(', ')} whose last value is not empty is ${answer.status}.`]),
    ...step.rejected.flatMap((name) =>
      when(context, [`%{QUERY_STRING} ${rewriteArg(lastValuePattern(name))}`, '%1 .'], errorFlags(errorVariant(answer, name))),
    ),
    `    # filters ${served.map(({ filter }) => filter.param).join(', ')}: the raw last value of each (an empty one filters nothing).`,
    ...served.flatMap(({ lines }) => lines),
    ...combinedRules(context, step, served.map(({ variable }) => variable)),
    ...served.flatMap(({ filter, variable }) => valueRules(context, filter, variable, part)),
  ];
}

/**
 * Two filters or more with values: the variant of the first two, as the map names them. Pairs are tried
 * in the map's order, so the first that matches is the first two filters given a value.
 */
function combinedRules(context: StepContext, step: FiltersStep, variables: string[]): string[] {
  const answer = context.map.errors[step.combinedError];
  const lines = [`    # Two of them with values: ${answer.status}, naming the first two.`];
  step.served.forEach((first, i) => {
    step.served.slice(i + 1).forEach((second, offset) => {
      const conditions = [`%{ENV:${variables[i]}} .`, `%{ENV:${variables[i + 1 + offset]}} .`];
      lines.push(...when(context, conditions, errorFlags(errorVariant(answer, `${first.param}&${second.param}`))));
    });
  });
  return lines;
}

/** The value of one filter, when it is the one in use: the folder of its canonical form, or its error. */
function valueRules(context: StepContext, filter: ServedFilter, variable: string, part: string): string[] {
  const [before, after] = filter.folder.split('{value}') as [string, string | undefined];
  if (after === undefined) throw new Error(`apache: filter ${filter.param}: its folder has no {value}: ${filter.folder}`);
  const folder = (value: string) => `${flagValue(before)}${value}${flagValue(after)}`;
  const valid = filter.values === 'choice' ? choiceValueRules(context, filter, variable, part, folder) : numberValueRules(context, filter.param, variable, part, folder);
  return [...valid, ...invalidRules(context, filter, variable, part)];
}

/** A choice: exactly one of the map's values (each character plain or percent-encoded), its own canonical form. */
function choiceValueRules(context: StepContext, filter: ServedFilter, variable: string, part: string, folder: (value: string) => string): string[] {
  const choices = filter.choices ?? [];
  for (const choice of choices) {
    // The rules take the decoded value as the folder's name: no `+` or space (a space's spellings differ).
    if (!/^[A-Za-z0-9_-]+$/.test(choice)) throw new Error(`apache: filter ${filter.param}: the choice ${JSON.stringify(choice)} cannot name a folder in the rules`);
  }
  return [
    `    # ${filter.param}: one of ${choices.length} choices, case as written; it fills {filter} with ${filter.folder}.`,
    ...when(context, [`%{ENV:${variable}} ${rewriteArg(formValuesPattern(choices))}`, `\${${UNESCAPE_MAP}:%{ENV:${variable}}} ^(.+)$`], `[E=${part}:${folder('%1')}]`),
  ];
}

/**
 * A number, in the spellings that contract section 8 asks of rules: decimal digits with leading zeros,
 * a sign (`-`, or `+` sent as `%2B`), a `.` and digits after it; each character plain or percent-encoded.
 * Cut toward zero: the integer part, leading zeros dropped (none left: `0`, whatever the sign). More
 * digits than an id has names no list (the map's `idDigits`): no file is looked up.
 */
function numberValueRules(context: StepContext, param: string, variable: string, part: string, folder: (value: string) => string): string[] {
  const digits = context.map.paths.idDigits;
  const digit = encodedDigit();
  const zeros = `${encodedDigit('0')}*`;
  const fraction = `(?:${encodedChar('.')}${digit}*)?`;
  const minus = encodedChar('-');
  const plus = '%2[bB]';
  const sign = `(?:${minus}|${plus})?`;
  const integer = (prefix: string) => `^${prefix}${zeros}(${encodedDigit('1-9')}${digit}{0,${digits - 1}})${fraction}$`;
  const decoded = `\${${UNESCAPE_MAP}:%1} ^([0-9]+)$`;
  return [
    `    # ${param}: a number (leading zeros, a sign, a fraction cut off); it fills {filter} with its integer.`,
    ...when(context, [`%{ENV:${variable}} ${rewriteArg(integer(`(?:${plus})?`))}`, decoded], `[E=${part}:${folder('%1')}]`),
    ...when(context, [`%{ENV:${variable}} ${rewriteArg(integer(minus))}`, decoded], `[E=${part}:${folder('-%1')}]`),
    ...when(context, [`%{ENV:${variable}} ${rewriteArg(`^${sign}(?:${encodedDigit('0')}+${fraction}|${encodedChar('.')}${digit}+)$`)}`], `[E=${part}:${folder('0')}]`),
    `    # More than ${digits} digits: no record has such an id, so no list; page 1 is the empty list.`,
    ...when(context, [`%{ENV:${variable}} ${rewriteArg(`^${sign}${zeros}${encodedDigit('1-9')}${digit}{${digits},}${fraction}$`)}`], `[E=${part}:${folder('')},E=${LISTLESS}:1]`),
    `    # Any other spelling of at most ${MACHINE_LIMIT} bytes: read by the machine (exponents, white space, _, other scripts' digits).`,
    ...when(context, startMachine(variable, part), startFlags(variable, 'numtext', param)),
    ...when(context, [`%{ENV:${FOR}} =${param}`, `%{ENV:${OUT}} ^n:(-?[0-9]+)$`], `[E=${part}:${folder('%1')}]`),
    ...when(context, [`%{ENV:${FOR}} =${param}`, `%{ENV:${OUT}} =none`], `[E=${part}:${folder('')},E=${LISTLESS}:1]`),
  ];
}

/** The machine reads a value that no pattern has read, once, when it is not too long to read. */
function startMachine(variable: string, part: string): string[] {
  return [`%{ENV:${variable}} ^.{1,${MACHINE_LIMIT}}$`, `%{ENV:${part}} ^$`, `%{ENV:${MODE}} ^$`];
}

/**
 * A value given but read as none of the above: the filter's error. When the map echoes the value whole
 * (an invalid choice), the body is filled in: a value of letters and digits as it decodes, any other
 * value of at most `MACHINE_LIMIT` bytes as the machine writes it in JSON; a longer one gets the
 * answer's fixed body for the filter, which names it.
 */
function invalidRules(context: StepContext, filter: ServedFilter, variable: string, part: string): string[] {
  const answer = context.map.errors[filter.error];
  const variant = errorVariant(answer, filter.param);
  const conditions = [`%{ENV:${variable}} .`, `%{ENV:${part}} ^$`];
  if (answer.echo !== 'whole') return when(context, conditions, errorFlags(variant));
  const file = rewriteArg(`${context.root}${variant.file}`);
  const fill = (value: string) => `${file} ${fillFlags(filter.error, { name: filter.param, value })}`;
  const lettersAndDigits = '^(?:[A-Za-z0-9]|%(?:3[0-9]|[46][1-9A-Fa-f]|[57][0-9Aa]))+$';
  return [
    `    # Not one of them: ${answer.status} with the value in the body, or the answer's fixed body past ${MACHINE_LIMIT} bytes.`,
    ...when(context, [...conditions, `%{ENV:${variable}} ${lettersAndDigits}`, `\${${UNESCAPE_MAP}:%{ENV:${variable}}} ^(.+)$`], fill('%1')),
    ...when(context, startMachine(variable, part), startFlags(variable, 'echo', filter.param)),
    ...when(context, [`%{ENV:${FOR}} =${filter.param}`, `%{ENV:${MODE}} =${DONE_MODE}`], fill(`%{ENV:${OUT}}`)),
    ...when(context, conditions, errorFlags(variant)),
  ];
}

/**
 * The flags of an answer whose body the site fills in: its name and values in `LDA_FILL*`, and the
 * request mapped to the answer's own file. The site file's `<If>` for that answer, evaluated once the
 * rules have run, sets its `ErrorDocument` to the template filled from those variables and answers
 * its status (`Redirect <status>`), so the file is never served as it is.
 */
export function fillFlags(answerName: string, values: Record<string, string>): string {
  const flags = [`E=${FILL}:${variablePart(answerName)}`, ...Object.entries(values).map(([key, value]) => `E=${fillVariable(key)}:${value}`)];
  return `[${flags.join(',')},L]`;
}

export function fillVariable(placeholder: string): string {
  return `${FILL}_${variablePart(placeholder)}`;
}

/**
 * `page=last` with a filter in use: the last page of its value, from the map's `lastPages` (any value
 * not there has one page, which the page step has already chosen). One rule for each last page,
 * matching the folders of the values that end there; long lists are cut into rules of a few
 * kilobytes, well under PCRE's limit on a pattern's size.
 */
export function filteredLastPageRules(context: StepContext, step: FiltersStep, alias: { label: string; condition: string }, fill: (page: number) => string): string[] {
  const part = `%{ENV:${fillPart(context, step.sets)}}`;
  const byPage = new Map<number, string[]>();
  for (const filter of step.served) {
    for (const [value, page] of Object.entries(filter.lastPages)) {
      if (!byPage.has(page)) byPage.set(page, []);
      byPage.get(page)!.push(escapeRegex(filter.folder.replace('{value}', value)));
    }
  }
  const lines = [`    # ${alias.label} with a filter: the last page of its value (${[...byPage.values()].flat().length} values have more than one).`];
  for (const [page, folders] of [...byPage].sort(([a], [b]) => a - b)) {
    for (const chunk of chunks(folders, PATTERN_BYTES)) {
      lines.push(...when(context, [alias.condition, `${part} ${rewriteArg(`^(?:${chunk.join('|')})$`)}`], fill(page)));
    }
  }
  return lines;
}

/** Largest alternation written in one condition. */
const PATTERN_BYTES = 4000;

function chunks(items: string[], bytes: number): string[][] {
  const result: string[][] = [[]];
  let size = 0;
  for (const item of items) {
    if (size + item.length + 1 > bytes && result.at(-1)!.length > 0) {
      result.push([]);
      size = 0;
    }
    result.at(-1)!.push(item);
    size += item.length + 1;
  }
  return result.filter((chunk) => chunk.length > 0);
}

