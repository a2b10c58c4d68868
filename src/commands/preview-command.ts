import { preview as startPreview } from '../index.ts';
import { parseOptions, type Command } from './command.ts';

export const previewCommand: Command = {
  name: 'preview',
  usage: `Usage: lda-mirror preview --dir <folder> [--port <n>] [--host <address>] [--static | --runtime workerd]

Serves a built folder over HTTP. By default every request is answered as the live service answers
it (contract section 9: name searches, filters combined, any page size and ordering), from the
build's query bundle, as a Cloudflare Worker or an edge function answers. With --static, only as a
host without code can: the precomputed files and the rewrite map (sections 3, 6 and 8), a 400 where
no file can be right. With --runtime workerd, the Cloudflare Worker that \`emit cloudflare\` writes
runs in workerd (through miniflare), over the query bundle as its assets: a deploy checked before it
is made. Stop it with Ctrl+C.

Options:
  --dir <folder>      the built folder (default: dist)
  --port <n>          port to listen on, 0 for any free one (default: 3000)
  --host <address>    address to listen on (default: 127.0.0.1)
  --static            answer from the files and the rewrite map only, as nginx, Caddy or S3 do
  --runtime <name>    node (default), or workerd: the emitted Cloudflare Worker in Cloudflare's runtime
  -h, --help          this help`,

  async run(argv) {
    const { values } = parseOptions(argv, {
      dir: { type: 'string' },
      port: { type: 'string' },
      host: { type: 'string' },
      static: { type: 'boolean' },
      runtime: { type: 'string' },
    });
    if (values.help) {
      console.log(this.usage);
      return 0;
    }
    const preview = await startPreview({ dir: values.dir, port: values.port, host: values.host, static: values.static, runtime: values.runtime });
    const how = values.static ? 'from its files and rewrite map only (--static)' : values.runtime === 'workerd' ? 'as the Cloudflare Worker answers, in workerd' : 'as the live service answers';
    console.log(`Previewing ${values.dir ?? 'dist'} at ${preview.url}, ${how}`);
    await new Promise<void>((resolve) => {
      const stop = () => void preview.close().then(resolve);
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
    return 0;
  },
};
