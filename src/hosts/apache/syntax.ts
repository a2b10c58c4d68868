import type { Listen } from '../host-adapter.ts';

/**
 * How text is written into Apache's configuration: directive arguments, mod_rewrite arguments and
 * flags, ErrorDocument expressions. Each function throws on what it cannot write safely, so a map
 * value that would change the meaning of a rule stops the emit instead.
 */

/** The folder path as the start of a file path in the rules (they serve files by their full path). */
export function fileRoot(dir: string): string {
  if (!dir.startsWith('/')) throw new Error(`apache: the built folder must be an absolute path, got ${JSON.stringify(dir)}`);
  if (/[\\"'$%\x00-\x1f\x7f]/.test(dir)) {
    throw new Error(`apache: the built folder's path cannot hold \\ " ' $ % or control characters in mod_rewrite rules: ${JSON.stringify(dir)}`);
  }
  return dir.endsWith('/') ? dir : `${dir}/`;
}

export function listenAddress({ address, port }: Listen): string {
  return `${address}:${port}`;
}

/** `*` for every address (a VirtualHost names addresses it answers on; 0.0.0.0 is not one). */
export function virtualHostAddress({ address, port }: Listen): string {
  return `${address === '0.0.0.0' ? '*' : address}:${port}`;
}

/**
 * A mod_rewrite argument. mod_rewrite splits its arguments on spaces and unescapes nothing but a
 * quoted argument may not hold its quote, so quote only when needed, with a quote the text lacks.
 */
export function rewriteArg(text: string): string {
  if (/[\x00-\x1f\x7f]/.test(text)) throw new Error(`apache: a rewrite argument cannot hold control characters: ${JSON.stringify(text)}`);
  if (!/[\s"']/.test(text)) return text;
  if (!text.includes('"')) return `"${text}"`;
  if (!text.includes("'")) return `'${text}'`;
  throw new Error(`apache: a rewrite argument cannot hold both quotes: ${text}`);
}

/** A value inside rewrite flags (`E=NAME:value`, `R=...`): no separators of the flag list, no expansion. */
export function flagValue(text: string): string {
  if (/[\s,\]"'\\$%]/.test(text)) throw new Error(`apache: ${JSON.stringify(text)} cannot be written in rewrite flags`);
  return text;
}

/**
 * Literal text inside rewrite flags or a condition's test string, where mod_rewrite expands `%`, `$`
 * and `\`: each of them escaped with `\`. No separators of the flag list or white space.
 */
export function expandLiteral(text: string): string {
  if (/[\s,\]']/.test(text)) throw new Error(`apache: ${JSON.stringify(text)} cannot be written in rewrite flags`);
  return text.replace(/[\\$%]/g, '\\$&');
}

/** A name inside an environment variable's name (`LDA_Q_page_size`) or a route label. */
export function variablePart(text: string): string {
  if (!/^[A-Za-z0-9_]+$/.test(text)) throw new Error(`apache: ${JSON.stringify(text)} cannot be part of an environment variable's name`);
  return text;
}

/** A method name in rewrite conditions and `<If>` lists. */
export function token(method: string): string {
  if (!/^[A-Za-z0-9_-]+$/.test(method)) throw new Error(`apache: unexpected method name ${JSON.stringify(method)}`);
  return method;
}

export function headerName(name: string): string {
  if (!/^[A-Za-z0-9-]+$/.test(name)) throw new Error(`apache: unexpected header name ${JSON.stringify(name)}`);
  return name;
}

/** mod_headers reads `%` as the start of a format specifier. */
export function headerValue(value: string): string {
  if (value.includes('%')) throw new Error(`apache: a header value cannot hold %: ${value}`);
  return value;
}

/** Text inside an ErrorDocument string expression, where `\`, `$` and `%` are escaped with a backslash. */
export function expressionText(text: string): string {
  return text.replace(/[\\$%]/g, '\\$&');
}

/** A string argument of an Apache directive: double-quoted, `\` and `"` escaped. */
export function quote(text: string): string {
  if (/[\x00-\x1f\x7f]/.test(text)) throw new Error(`apache: a directive argument cannot hold control characters: ${JSON.stringify(text)}`);
  return `"${text.replace(/[\\"]/g, '\\$&')}"`;
}
