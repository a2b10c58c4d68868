import { preview as startPreview } from '../index.ts';
import { parseOptions, type Command } from './command.ts';

export const previewCommand: Command = {
  name: 'preview',
  usage: `Usage: lda-mirror preview --dir <folder> [--port <n>] [--host <address>]

Serves a built folder over HTTP, routing every request by its rewrite map: query strings, errors,
redirects and headers as the contract says. Stop it with Ctrl+C.

Options:
  --dir <folder>      the built folder (default: dist)
  --port <n>          port to listen on, 0 for any free one (default: 3000)
  --host <address>    address to listen on (default: 127.0.0.1)
  -h, --help          this help`,

  async run(argv) {
    const { values } = parseOptions(argv, {
      dir: { type: 'string' },
      port: { type: 'string' },
      host: { type: 'string' },
    });
    if (values.help) {
      console.log(this.usage);
      return 0;
    }
    const preview = await startPreview({ dir: values.dir, port: values.port, host: values.host });
    console.log(`Previewing ${values.dir ?? 'dist'} at ${preview.url}`);
    await new Promise<void>((resolve) => {
      const stop = () => void preview.close().then(resolve);
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
    return 0;
  },
};
