import { caddy } from '../../src/hosts/caddy/caddy.ts';
import { hostSuite } from '../support/host-suite.ts';
import { realServerDriver, realServerEdges } from '../support/real-server-host.ts';
import { startCaddy } from '../support/real-servers.ts';

/** Caddy for real: the shared suite and the edge requests, through the emitted Caddyfile. */
hostSuite(realServerDriver(caddy, 'caddy', startCaddy), realServerEdges);
