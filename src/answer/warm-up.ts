import { createAnswerer } from './answerer.ts';

/**
 * A fresh instance's first answer pays for the first run of the answerer's code: V8 compiles each
 * function when it is first called and runs it slowly until it has seen it work. Measured in workerd at
 * 134,719 clients, that was most of a first answer's CPU (a list page: about 6 ms of its 6.4 beyond
 * its reads). So the programs that run the answerer (the Worker, the Netlify and Vercel functions)
 * answer a few requests of every kind at startup, over the warm-up bundle: the query bundle of a few
 * sample clients, made by the build's own code when the program is bundled
 * (warm-up/warm-up-bundle.ts) and carried in the program. Startup is the global scope, which the
 * platforms limit apart from a request's CPU (Workers: 1 s to parse and run it), and it runs once an
 * isolate.
 *
 * The warm-up answerer is thrown away afterwards: it shares nothing with the one that answers
 * requests, and its failure (which the tests rule out) costs speed, never an answer.
 */
export interface WarmUpBundle {
  /** Each file of the bundle by its name in the bundle folder, base64. */
  files: Record<string, string>;
  /** The requests answered, one of each kind the bench measures (targets: path and query). */
  targets: string[];
}

/**
 * How many times each target is answered. Once compiles the code; more runs its loops on into V8's
 * faster tiers. Measured at 134,719 clients (7 isolates, a loaded machine): four rounds against one
 * took the commonest word's search from 8.2 to 5.5 ms beyond its reads and its page 3 in name order
 * from 20.4 to 5.4, at about the same startup (50-60 ms of CPU either way: rounds after the first run
 * compiled code over 24 clients).
 */
const ROUNDS = 4;

/** Answers every target over the warm-up bundle, ROUNDS times; the statuses, in order. */
export async function warmUp(bundle: WarmUpBundle): Promise<number[]> {
  // No deadline on reads (a timer): a Worker's global scope refuses one, and the files are the program's own.
  // No page kept: a page kept would answer the later rounds without running the code they are for.
  const answerer = createAnswerer(async (file) => (file in bundle.files ? bytesOf(bundle.files[file]!) : undefined), { readMs: Infinity, keep: { pages: 0 } });
  const statuses: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    for (const target of bundle.targets) statuses.push((await answerer.answer('GET', target)).status);
  }
  return statuses;
}

/** The warm-up bundle, put in by the program's bundler (hosts/program-bundler.ts); absent when run from the sources. */
declare const LDA_WARM_UP: WarmUpBundle | undefined;

/** The warm-up of the bundle the program carries, at its startup (quietly); nothing when it carries none. */
export function warmUpCarried(): Promise<void> {
  return typeof LDA_WARM_UP === 'undefined' ? Promise.resolve() : warmUpQuietly(LDA_WARM_UP);
}

/** Runs the warm-up for a program's startup: a failure is logged for the platform's logs, never thrown. */
export function warmUpQuietly(bundle: WarmUpBundle): Promise<void> {
  return warmUp(bundle).then(
    (statuses) => {
      if (statuses.some((status) => status !== 200)) console.error(`lda-mirror: warm-up answered ${statuses.join(' ')}`);
    },
    (error: unknown) => console.error(`lda-mirror: warm-up failed: ${(error as Error).stack ?? String(error)}`),
  );
}

/**
 * The engine's own base64 decoder where it has one (workerd, Deno; not Node 20): the loop below, over
 * the warm-up bundle's files, runs long enough at startup for V8 to compile it twice more, the second
 * time with its optimizing compiler (2 to 2.5 ms of a helper thread, in V8's trace in Deno), which may
 * still be at work when the first request comes.
 */
const fromBase64 = (Uint8Array as unknown as { fromBase64?: (text: string) => Uint8Array }).fromBase64;

function bytesOf(base64: string): Uint8Array {
  if (typeof fromBase64 === 'function') return fromBase64.call(Uint8Array, base64);
  const text = atob(base64);
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}
