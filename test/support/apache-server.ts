import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startProcess, type RealServer } from './real-servers.ts';

/**
 * Apache httpd (Debian's `apache2` package) for the host tests: a self-contained httpd.conf in
 * `folder` that loads only the modules a site file of `npm run emit -- apache` needs and includes it,
 * run in the foreground. The site file brings its own `Listen` and `<VirtualHost>` on `port`.
 */
export const APACHE_BINARY = '/usr/sbin/apache2';
const MODULES = '/usr/lib/apache2/modules';

/** The modules the emitted site file uses (mpm, access control, .json types, rewrite, headers, alias for filled-in errors). */
const LOAD = [
  ['mpm_event_module', 'mod_mpm_event.so'],
  ['authz_core_module', 'mod_authz_core.so'],
  ['mime_module', 'mod_mime.so'],
  ['rewrite_module', 'mod_rewrite.so'],
  ['headers_module', 'mod_headers.so'],
  ['alias_module', 'mod_alias.so'],
];

export async function startApache(siteFile: string, folder: string, port: number): Promise<RealServer> {
  const run = path.join(folder, 'apache-run');
  mkdirSync(run, { recursive: true });
  // httpd refuses to serve as root; as root it switches to `User`, which must reach the built folder.
  const asRoot = process.getuid?.() === 0;
  if (asRoot) readableBy(folder);
  const conf = path.join(folder, 'httpd.conf');
  writeFileSync(
    conf,
    [
      `ServerRoot ${quote(run)}`,
      ...LOAD.map(([name, file]) => `LoadModule ${name} ${quote(path.join(MODULES, file!))}`),
      asRoot ? 'User www-data' : '',
      asRoot ? 'Group www-data' : '',
      'ServerName localhost',
      `PidFile ${quote(path.join(run, 'httpd.pid'))}`,
      `DefaultRuntimeDir ${quote(run)}`,
      `Mutex ${quote(`file:${run}`)} default`,
      `ErrorLog ${quote(path.join(run, 'error.log'))}`,
      'LogLevel warn',
      // A stock Debian server reads /etc/mime.types; the site file also maps .json itself.
      existsSync('/etc/mime.types') ? 'TypesConfig /etc/mime.types' : `TypesConfig ${quote('/dev/null')}`,
      'StartServers 1',
      'ServerLimit 1',
      'ThreadsPerChild 25',
      'MaxRequestWorkers 25',
      `Include ${quote(siteFile)}`,
      '',
    ].join('\n'),
  );
  // Debian's apache2 reads these from /etc/apache2/envvars when started by apachectl; set them here.
  const env = {
    ...process.env,
    APACHE_RUN_DIR: run,
    APACHE_LOCK_DIR: run,
    APACHE_LOG_DIR: run,
    APACHE_PID_FILE: path.join(run, 'httpd.pid'),
    APACHE_RUN_USER: 'www-data',
    APACHE_RUN_GROUP: 'www-data',
    LANG: 'C',
  };
  const test = spawnSync(APACHE_BINARY, ['-f', conf, '-t'], { encoding: 'utf8', env });
  if (test.status !== 0) throw new Error(`apache2 -t rejected the configuration:\n${test.stderr}${test.stdout}`);
  return startProcess(APACHE_BINARY, ['-f', conf, '-DFOREGROUND'], port, env);
}

/**
 * Lets other users read `folder` and traverse its parents (temporary folders are private): the
 * workers run as www-data. Files the build writes are already world-readable (umask 022).
 */
function readableBy(folder: string): void {
  const temp = realpathSync(tmpdir());
  let current = realpathSync(folder);
  chmodSync(current, statSync(current).mode | 0o755);
  while (path.dirname(current) !== current) {
    current = path.dirname(current);
    if ((statSync(current).mode & 0o001) !== 0) continue;
    // Only folders inside the temporary folder are opened up; anything else is the caller's to fix.
    if (!current.startsWith(`${temp}${path.sep}`)) throw new Error(`apache: www-data cannot traverse ${current} to reach ${folder}`);
    chmodSync(current, statSync(current).mode | 0o711);
  }
}

function quote(text: string): string {
  return `"${text.replace(/[\\"]/g, '\\$&')}"`;
}
