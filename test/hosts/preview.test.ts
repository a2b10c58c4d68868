import { startPreview } from '../../src/preview/preview-server.ts';
import { hostSuite } from '../support/host-suite.ts';

/**
 * The preview, the reference every other host is held to: the shared suite through the real server
 * (node:http and serve-handler) on a random port. It declares no gaps.
 */
hostSuite({
  name: 'preview',
  gaps: {},
  async start(dir) {
    const preview = await startPreview({ dir, port: 0 });
    return { url: preview.url, stop: () => preview.close() };
  },
});
