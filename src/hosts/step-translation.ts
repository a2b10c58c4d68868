import type { RewriteMap, Route, Step } from '../plan/rewrite-map.ts';

/**
 * Every emitter that translates the map's steps keeps a table with one translation for each kind of
 * step (`method`, `choice`, `pageSize`, `filters`, `page`), typed so that TypeScript makes it name them
 * all; this is how it looks one up.
 */
export type StepKind = Step['step'];
export type StepOf<K extends StepKind> = Extract<Step, { step: K }>;

/**
 * The translation of `step` from an emitter's table. A kind the table lacks (a map newer than the
 * emitter) stops the emit: skipping a step would serve files for requests the map rejects.
 */
export function translationOf<Translation>(host: string, route: Route, table: Record<StepKind, unknown>, step: Step): Translation {
  if (!Object.hasOwn(table, step.step)) {
    throw new Error(`${host}: route ${route.name} has a step of kind ${JSON.stringify(step.step)}, which this emitter cannot translate`);
  }
  return table[step.step] as Translation;
}

/**
 * What the steps of one route need to know about the configuration around them, for the emitters
 * that read the query into variables first (nginx, Caddy).
 */
export interface RouteContext {
  map: RewriteMap;
  route: Route;
  /** The route's prefix for the variables its steps define. */
  name: string;
  /** The variable holding the raw last value of each query parameter. */
  query: Map<string, string>;
}
