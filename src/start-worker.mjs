// Worker threads do not inherit the TypeScript loader of the thread that starts them (Node 20):
// register tsx here, then load the module the thread runs, the last argument (worker-thread.ts). Only
// for the TypeScript sources (tsx, vitest): the compiled package starts its .js modules directly.
import { register } from 'tsx/esm/api';

register();
await import(process.argv.at(-1));
