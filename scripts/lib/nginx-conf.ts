import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * nginx in the foreground from a scratch folder, around one site file (`lda-mirror emit nginx`'s):
 * an nginx.conf like Debian's (mime.types included) with one worker, no access log, and its pid and
 * temporary folders inside `folder`; `http` adds lines to its http block. Written, then checked with
 * `nginx -t`; returns the arguments that start nginx with it. The host tests and the bench's
 * throughput measure both run nginx so.
 */
export function writeNginxConf(folder: string, siteConf: string, http: readonly string[] = []): string[] {
  const conf = path.join(folder, 'nginx.conf');
  const temp = (name: string) => `    ${name}_temp_path ${path.join(folder, name)};`;
  writeFileSync(
    conf,
    [
      // As root (tests and the bench here), the worker would otherwise run as nobody, who may not read the folder.
      process.getuid?.() === 0 ? 'user root;' : '',
      'worker_processes 1;',
      'daemon off;',
      `pid ${path.join(folder, 'nginx.pid')};`,
      'error_log stderr;',
      'events {}',
      'http {',
      '    include /etc/nginx/mime.types;',
      '    access_log off;',
      ...http.map((line) => `    ${line}`),
      ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(temp),
      `    include ${siteConf};`,
      '}',
      '',
    ].join('\n'),
  );
  const args = ['-c', conf, '-p', `${folder}/`];
  const test = spawnSync('nginx', ['-t', ...args], { encoding: 'utf8' });
  if (test.error !== undefined || test.status !== 0) throw new Error(`nginx -t rejected the configuration:\n${test.error?.message ?? test.stderr}`);
  return args;
}
