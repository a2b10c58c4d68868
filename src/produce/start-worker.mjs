// Worker threads do not inherit the TypeScript loader of the thread that starts them (Node 20):
// register tsx here, then load the real worker. Only for the TypeScript sources (tsx, vitest): the
// compiled package starts produce-worker.js itself (produce-site.ts).
import { register } from 'tsx/esm/api';

register();
await import('./produce-worker.ts');
