import type { ErrorAnswer, ErrorName, RewriteMap, Route } from '../../plan/rewrite-map.ts';
import { lastValuePattern } from '../query-patterns.ts';
import { flagValue, rewriteArg, variablePart } from './syntax.ts';

/**
 * What the rules of one route's steps share (./route-rules.ts, ./filter-rules.ts): the variables they
 * leave for each other and the way they write a rule.
 *
 * mod_rewrite keeps only the captures of the last match, so rules leave what they read in
 * environment variables (`E=`) for the rules after them: the route (`LDA_ROUTE`, guarding every rule
 * of its steps), the id, a parameter's raw last value (`LDA_Q_<param>`), the part of the file name a
 * step fills (`LDA_PART_<part>`). Errors are `R=<status>` with `E=LDA_ERROR:<the map's file>`, served
 * by the ErrorDocument rules of the site file.
 */

/** Prefix of the environment variables the rules define. */
export const V = 'LDA_';
/** The `RewriteMap` that percent-decodes a value (`int:unescape`, allowed in server context only). */
export const UNESCAPE_MAP = 'lda_unescape';
/** Set to `1` while the page step has chosen the first page: a missing file is then its `firstMissing`. */
export const FIRST_PAGE = `${V}FIRST`;
/** Set to `1` when a filter's value names no list that could exist: no file is looked up. */
export const LISTLESS = `${V}LISTLESS`;
/**
 * An answer whose body the site fills in from the request (`echo: 'whole'`, the live service's own
 * bodies): `LDA_FILL` names the answer, `LDA_FILL_<placeholder>` holds each value, JSON-escaped.
 */
export const FILL = `${V}FILL`;

export interface StepContext {
  map: RewriteMap;
  route: Route;
  /** The route's value of `LDA_ROUTE`. */
  label: string;
  /** What fills each `{part}` of the route's file, as mod_rewrite expressions; steps add theirs. */
  parts: Record<string, string>;
  /** The built folder as the start of a file path. */
  root: string;
  /** The page step's answer for a first page whose file does not exist. */
  firstMissing?: ErrorName;
}

/** `[R=status,E=LDA_ERROR:file,L]`: the error's status now, its file on the ErrorDocument redirect. */
export function errorFlags(answer: ErrorAnswer): string {
  return `[R=${answer.status},E=${V}ERROR:${flagValue(answer.file)},L]`;
}

/**
 * The substitution and flags that answer `answer`: an error (see `errorFlags`), or for a 200 (the empty
 * list) its file, served as it is.
 */
export function answerRule(answer: ErrorAnswer, root: string): string {
  if (answer.status === 200) return `${rewriteArg(`${root}${answer.file}`)} [L]`;
  return `- ${errorFlags(answer)}`;
}

/** The raw (still percent-encoded) last value of `param` in `LDA_Q_<param>`; "" when absent. */
export function readValue(context: StepContext, param: string): { variable: string; lines: string[] } {
  const variable = queryVariable(param);
  return { variable, lines: when(context, [`%{QUERY_STRING} ${rewriteArg(lastValuePattern(param))}`], `[E=${variable}:%1]`) };
}

export function queryVariable(param: string): string {
  return `${V}Q_${variablePart(param)}`;
}

/** The variable a step fills `{part}` of the file with. */
export function fillPart(context: StepContext, part: string): string {
  const variable = `${V}PART_${variablePart(part)}`;
  context.parts[part] = `%{ENV:${variable}}`;
  return variable;
}

/** A rule of the route's steps: when the route is this one and the conditions hold, `flags` (`- [..]` unless a substitution is given). */
export function when(context: StepContext, conditions: string[], flags: string): string[] {
  const rule = flags.startsWith('[') ? `- ${flags}` : flags;
  return [`    RewriteCond %{ENV:${V}ROUTE} =${context.label}`, ...conditions.map((condition) => `    RewriteCond ${condition}`), `    RewriteRule ^ ${rule}`];
}

export function routeLabel(route: Route): string {
  return variablePart(route.name);
}
