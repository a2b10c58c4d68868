/**
 * What a host must do to answer like the preview, one column of the README's host table each. Every
 * host adapter declares the ones it cannot do (its `gaps`, with the reason); tests send the requests of
 * each behaviour to every host and check both the behaviours that work and the gaps as declared.
 */
export const BEHAVIOURS = {
  orderings: 'the four orderings',
  pages: 'page numbers, leading zeros, past the end (404 Invalid page.)',
  last: 'page=last',
  formats: 'format=api and json, unknown formats 404',
  rejections: '400 for unsupported ordering, page_size, filters',
  methods: '405 naming the method',
  head: 'HEAD as GET without a body',
  missingSlash: '301 to the path with its final slash, query kept; repeated slashes read as one',
  headers: 'Content-Type, Vary, Allow on every answer',
  percentDecoding: 'percent-encoded names, values and paths',
  repeatedParameters: 'a repeated parameter counts with its last value',
} as const;

export type Behaviour = keyof typeof BEHAVIOURS;

/** Behaviours a host cannot do, with the reason the README gives. */
export type Gaps = Partial<Record<Behaviour, string>>;
