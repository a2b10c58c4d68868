/**
 * What the rules of one route's steps share (./step-rules.ts, which dispatches to them,
 * ./filter-rules.ts and ./page-rules.ts): what a step adds to the Caddyfile.
 */

/**
 * What a step adds: `map`s and matchers (site level), `respond` lines in step order, parts of the file
 * name, and `respond` lines for when that file does not exist, before the route's own missing-file answer.
 */
export interface StepRules {
  maps: string[];
  matchers: string[];
  checks: string[];
  parts: Record<string, string>;
  missing?: string[];
}
