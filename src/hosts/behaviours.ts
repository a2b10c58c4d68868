/**
 * What a host must do to answer like the preview, one column of docs/hosts.md's host table each. Every
 * host adapter declares the ones it cannot do (its `gaps`, with the reason); tests send the requests of
 * each behaviour to every host and check both the behaviours that work and the gaps as declared.
 */
export const BEHAVIOURS = {
  orderings: { label: 'orderings', meaning: 'the four orderings' },
  pages: { label: 'pages', meaning: 'page numbers, leading zeros, past the end (404 Invalid page.)' },
  last: { label: '`last`', meaning: 'page=last' },
  formats: { label: 'formats', meaning: 'format=api and json, unknown formats 404' },
  rejections: { label: '400s', meaning: '400 for unsupported ordering, page_size, filters not built, combined filters' },
  filters: {
    label: 'filters',
    meaning: 'the filters built, values in canonical form or with leading zeros, `+`, `.` and digits: every page, `last`, the empty list, 400 for invalid values',
  },
  filterSpellings: {
    label: 'filter spellings',
    meaning: 'any other spelling Python reads (exponents, white space, `_`, non-ASCII digits), and invalid values beyond letters and digits echoed exactly',
  },
  methods: { label: '405', meaning: '405 naming the method' },
  head: { label: 'HEAD', meaning: 'HEAD as GET without a body' },
  missingSlash: { label: 'missing slash', meaning: '301 to the path with its final slash, query kept; repeated slashes read as one' },
  headers: { label: 'headers', meaning: 'Content-Type, Vary, Allow on every answer' },
  percentDecoding: { label: 'percent-decoding', meaning: 'percent-encoded names, values and paths' },
  repeatedParameters: { label: 'repeated parameters', meaning: 'a repeated parameter counts with its last value' },
} as const;

export type Behaviour = keyof typeof BEHAVIOURS;

/** Behaviours a host cannot do, with the reason the host table of docs/hosts.md gives. */
export type Gaps = Partial<Record<Behaviour, string>>;
