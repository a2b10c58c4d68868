/**
 * The request target (path and query) exactly as it reached an edge runtime, from the absolute URL
 * that runtimes hand over (`request.url`): the answerer reads the query string as sent, so it is cut
 * out of the URL, never rebuilt from `URL.search`.
 */
export function requestTarget(url: string): string {
  const pathStart = url.indexOf('/', url.indexOf('//') + 2);
  return pathStart < 0 ? '/' : url.slice(pathStart);
}
