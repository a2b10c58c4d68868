import { nginx } from '../../src/hosts/nginx/nginx.ts';
import { hostSuite } from '../support/host-suite.ts';
import { realServerDriver, realServerEdges } from '../support/real-server-host.ts';
import { startNginx } from '../support/real-servers.ts';

/** nginx for real: the shared suite and the edge requests, through the emitted server block. */
hostSuite(realServerDriver(nginx, 'nginx', startNginx), realServerEdges);
