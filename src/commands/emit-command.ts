import type { HostAdapter, HostTarget } from '../hosts/host-adapter.ts';
import { HOSTS } from '../hosts/hosts.ts';
import { emit } from '../index.ts';
import { parseOptions, type Command } from './command.ts';

const hostList = HOSTS.map(
  (host) =>
    `  ${host.name.padEnd(12)} ${host.summary}\n  ${''.padEnd(12)} writes: ${host.files.join(', ')}${copiesText(host)}${host.listen ? `; --listen (default ${host.listen.default})` : ''}`,
).join('\n');

/** The folders a host copies, as --help says them: of a folder called `<dir>` (no map is read for --help). */
function copiesText(host: HostAdapter): string {
  const copies = host.copies?.({ dir: '<dir>' } as HostTarget) ?? [];
  return copies.map(({ name, from }) => `; copies ${from} to ${name}`).join('');
}

export const emitCommand: Command = {
  name: 'emit',
  usage: `Usage: lda-mirror emit <host> --dir <built folder> --out <path> [--listen <address:port>]

Translates the built folder's rewrite map into a host's configuration, so the host answers query
strings, errors, redirects and headers as the preview does. Regenerate it after every build.
It prints the base URL that the build baked into every link, and refuses a loopback one.
One file: --out names the file. Several: --out is a folder that receives them.

Hosts:
${hostList}

Options:
  --dir <folder>            the built folder (default: dist)
  --out <path>              where the configuration goes (required)
  --listen <address:port>   address and port, for hosts that listen (nginx, Caddy, Apache)
  --allow-local-base-url    emit even for a build whose base URL is loopback (localhost,
                            127.0.0.0/8, [::1], 0.0.0.0): for a local test, never to publish
  -h, --help                this help`,

  async run(argv) {
    const [name, ...rest] = argv;
    if (name === undefined || name === '--help' || name === '-h') {
      console.log(this.usage);
      return name === undefined ? 2 : 0;
    }
    const { values } = parseOptions(rest, {
      dir: { type: 'string' },
      out: { type: 'string' },
      listen: { type: 'string' },
      'allow-local-base-url': { type: 'boolean' },
    });
    if (values.help) {
      console.log(this.usage);
      return 0;
    }
    const emitted = await emit({ host: name, dir: values.dir, out: values.out ?? '', listen: values.listen, allowLocalBaseUrl: values['allow-local-base-url'] });
    console.log(
      `${emitted.host}: wrote ${emitted.files.join(', ')} (${emitted.clients.toLocaleString('en-US')} clients, ${emitted.pages.toLocaleString('en-US')} pages a list)`,
    );
    console.log(`${emitted.host}: base URL ${emitted.baseUrl} (every url, next and previous starts with it)`);
    return 0;
  },
};
