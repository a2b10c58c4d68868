import path from 'node:path';
import { loadMap } from '../built-folder.ts';
import { listRoute } from '../plan/rewrite-map.ts';
import { UsageError } from '../errors.ts';
import { HOSTS, findHost } from '../hosts/hosts.ts';
import { parseListen, writeHostFiles } from '../hosts/write-host-files.ts';
import { parseOptions, type Command } from './command.ts';

const hostList = HOSTS.map(
  (host) => `  ${host.name.padEnd(11)} ${host.summary}\n  ${''.padEnd(11)} writes: ${host.files.join(', ')}${host.listen ? `; --listen (default ${host.listen.default})` : ''}`,
).join('\n');

export const emitCommand: Command = {
  name: 'emit',
  summary: "write a host's configuration (nginx, Caddy, Netlify, ...) for a built folder",
  usage: `Usage: npm run emit -- <host> --dir <built folder> --out <path> [--listen <address:port>]

Translates the built folder's rewrite map into a host's configuration, so the host answers query
strings, errors, redirects and headers as the preview does. Regenerate it after every build.
One file: --out names the file. Several: --out is a folder that receives them.

Hosts:
${hostList}

Options:
  --dir <folder>            the built folder (default: dist)
  --out <path>              where the configuration goes (required)
  --listen <address:port>   address and port, for hosts that listen (nginx, Caddy, Apache)
  -h, --help                this help`,

  async run(argv) {
    const [name, ...rest] = argv;
    if (name === undefined || name === '--help' || name === '-h') {
      console.log(this.usage);
      return name === undefined ? 2 : 0;
    }
    const host = findHost(name);
    if (host === undefined) throw new UsageError(`unknown host "${name}"; hosts: ${HOSTS.map((h) => h.name).join(', ')}`);
    const { values } = parseOptions(rest, { dir: { type: 'string' }, out: { type: 'string' }, listen: { type: 'string' } });
    if (values.help) {
      console.log(this.usage);
      return 0;
    }
    if (values.out === undefined) throw new UsageError('--out is required: the file (or folder) to write');
    if (values.listen !== undefined && host.listen === undefined) throw new UsageError(`--listen: ${host.name} does not listen on an address`);
    const listenText = values.listen ?? host.listen?.default;
    const listen = listenText === undefined ? undefined : parseListen(listenText);
    if (listenText !== undefined && listen === undefined) throw new UsageError(`--listen: "${listenText}" is not a port, address:port or [ipv6]:port`);

    const dir = path.resolve(values.dir ?? 'dist');
    const map = await loadMap(dir);
    const written = writeHostFiles(host.emit({ map, dir, listen }), path.resolve(values.out));
    console.log(`${host.name}: wrote ${written.join(', ')} (${listRoute(map).count.toLocaleString('en-US')} clients, ${listRoute(map).page.last.toLocaleString('en-US')} pages a list)`);
    return 0;
  },
};
