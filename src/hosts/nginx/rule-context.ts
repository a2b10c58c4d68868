import type { ErrorName } from '../../plan/rewrite-map.ts';
import type { RouteContext } from '../step-translation.ts';

/**
 * What the rules of one route's steps share (./step-rules.ts, which dispatches to them, and
 * ./filter-rules.ts): what a step adds, what it provides to the steps after it, and the variable
 * holding a parameter's raw value.
 */

/** What a step adds: `map` blocks (http level), lines of the location in step order, parts of the file name. */
export interface StepRules {
  maps: string[];
  checks: string[];
  parts: Record<string, string>;
  /** What the steps after it read: the last page of the filter in use (`''` for none). */
  provides?: Provided;
  /** Entries of its largest exact `map` (a hash), when it has one that grows with the build. */
  hashEntries?: number;
  /** The name of the answer when the file does not exist, as an nginx expression, and every name it can hold. */
  missing?: { expression: string; answers: ErrorName[] };
}

export interface Provided {
  lastPage?: string;
}

/** A route's context, with what the steps before this one provide. */
export interface StepContext extends RouteContext {
  earlier: Provided;
}

/** The variable holding the raw last value of the query parameter `param`. */
export function queryVariable(query: Map<string, string>, param: string): string {
  const variable = query.get(param);
  if (variable === undefined) throw new Error(`nginx: no variable for the query parameter ${param}`);
  return variable;
}
