import type { Step } from '../../plan/rewrite-map.ts';
import { generatedNotice, type HostAdapter, type HostTarget } from '../host-adapter.ts';
import { lastPageRules } from './last-page-rules.ts';
import { stepRules } from './step-rules.ts';
import { ID, rule } from './syntax.ts';

/**
 * Netlify: a `_redirects` file (rules read top to bottom, the first match wins) and a `_headers` file,
 * both written into the built folder that Netlify publishes (notes.md beside this file).
 *
 * Each route's steps are translated in the map's order into nested blocks of rules (step-rules.ts):
 * a rule can ask that query parameters be present, with a given value or any value, never that one be
 * absent. Values are passed on with placeholders: a filter's value into its folder
 * (`client_state=:value` to `client_state=:value/`), the page number into its file (`page=:n` to
 * `page=:n.json`). So a value the build wrote no file for is a rewrite to a file that does not exist:
 * Netlify's 404 page, which is the build's `404.html` (see `gaps`). `page=last` with a filter's value
 * of more than one page has rules of its own before the blocks (last-page-rules.ts).
 *
 * Rewrites (`200`) serve the page and record files; errors are rewrites to the map's error files with
 * the error's status (`... /errors/400-ordering.json 400`). The API rules are not forced: no file of the
 * build lies at an API path (they lie inside its folders), so nothing shadows them. The last rule is a
 * forced catch-all that answers any other path, built files included, with the map's JSON 404.
 */
export const netlify: HostAdapter = {
  name: 'netlify',
  summary: "Netlify's _redirects and _headers, written into the built folder that Netlify publishes",
  files: ['_redirects', '_headers'],
  publishedWithSite: true,
  gaps: {
    pages:
      "a page past the end or not a plain number gets the site's 404 page (the build's `404.html`, `{\"detail\":\"Not found.\"}`) instead of `{\"detail\":\"Invalid page.\"}`, and leading zeros (`page=02`) are not read: a rule cannot compare numbers, and a rewrite to a file that does not exist ends in the 404 page",
    rejections:
      'an empty filter (`client_name=`, or `client_state=` beside another filter) may be rejected like a real one: Netlify does not document whether `name=:value` matches an empty value, and ruling it out would repeat every page rule for each combination of empty filters',
    filters:
      "a rule can neither read a number nor test a choice, so a filter's value is passed on as written into its folder (`client_state=:value` to `client_state=:value/`): a value that clients have, in canonical form, is answered (every page, `last`), but `007`, `+7`, `7.9`, an invalid value (a 400 expected) and a valid value that no client has (the empty list expected) name no folder and get the site's 404 page, as no rule can tell that a file is missing; and `page=last` with a value of more than one page reads format and ordering into the file's name (four rules a value instead of one in each of the twenty blocks), so there an unsupported or empty ordering, or an empty `format=`, gets the 404 page too",
    filterSpellings:
      'a number with an exponent, white space, `_` or other digits, and an invalid value of any characters, name no folder: the 404 page, never a 400 naming the parameter or echoing the value (a rule cannot read a number, nor fill in a body)',
    methods: "`_redirects` rules cannot test the method, and Netlify answers other methods on its files itself (a 405 without the JSON body)",
    missingSlash:
      'Netlify normalises URLs before its rules run and matches them with or without the final slash (its docs: a rule cannot add or remove a trailing slash), so `/api/v1/clients?page=2` is answered as the list, not with a 301; repeated slashes are not read as one',
    headers:
      "Netlify ignores a custom `Allow` header (its docs list it among the headers its servers set themselves), and its 404 page (the build's `404.html`, sent as HTML, for an unknown id or page) and its own 405 carry none of the map's headers",
    repeatedParameters: 'Netlify does not document which value of a repeated parameter its rules read; they are held to the first one, not the last',
  },
  emit: (target) => [
    { name: '_redirects', text: redirectsFile(target) },
    { name: '_headers', text: headersFile(target) },
  ],
};

function redirectsFile({ map }: HostTarget): string {
  return [
    generatedNotice(map, '#'),
    '# Rules are read top to bottom and the first that matches answers; more specific rules come first.',
    '# 200 rewrites serve the built files; errors are rewrites to the error files with their status.',
    ...map.routes.flatMap((route) => {
      const from = route.path.replace('{id}', ID);
      const lastPages = lastPageRules(map, route, from);
      return [
        '',
        ...(lastPages.length === 0 ? [] : [`# ${route.name}, ${route.path}: page=last with a filter's value of more than one page, format and ordering read into the file's name.`]),
        ...lastPages,
        `# ${route.name}, ${route.path}: ${route.steps.map(stepName).join(', ')}, then the file (the map's order).`,
        ...stepRules(map, route, from),
      ];
    }),
    '',
    '# Anything else, built files included: the JSON 404 (forced, so an existing file does not shadow it).',
    rule('/*', [], `/${map.errors.notFound.file}`, map.errors.notFound.status, true),
    '',
  ].join('\n');
}

/** A step as the comments name it: by the parameter it reads, if one. */
function stepName(step: Step): string {
  return 'param' in step ? step.param : step.step;
}

/** The map's headers on every path: every answer of the site is JSON. */
function headersFile({ map }: HostTarget): string {
  return [generatedNotice(map, '#'), '/*', ...Object.entries(map.headers).map(([name, value]) => `  ${name}: ${value}`), ''].join('\n');
}
