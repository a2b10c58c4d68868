import { startPreview } from '../../src/preview/preview-server.ts';
import { hostSuite } from '../support/host-suite.ts';

/**
 * The preview, the reference every other host is held to, through the real server on a random port:
 * as it answers by default, every request as the live service does (contract section 9, the exact
 * sets), and with `--static`, as a host without code does (sections 3, 6 and 8, the static sets and the
 * host table's probes). It declares no gaps either way.
 */
hostSuite({
  name: 'preview',
  profile: 'exact',
  gaps: {},
  async start(dir) {
    const preview = await startPreview({ dir, port: 0 });
    return { url: preview.url, stop: () => preview.close() };
  },
});

hostSuite({
  name: 'preview --static',
  gaps: {},
  async start(dir) {
    const preview = await startPreview({ dir, port: 0, static: true });
    return { url: preview.url, stop: () => preview.close() };
  },
});
