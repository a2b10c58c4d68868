import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import path from 'node:path';
import { writeNginxConf } from '../../scripts/lib/nginx-conf.ts';

/**
 * Real web servers for the host tests, each started in the foreground on a free loopback port from a
 * configuration in a temporary folder, and stopped after. `.ci/run` installs them (Debian packages).
 */
export interface RealServer {
  url: string;
  stop(): Promise<void>;
}

export function hasCommand(command: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${command}`]).status === 0;
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** nginx with a stock-like nginx.conf (mime.types included) whose http block includes `siteConf`. */
export async function startNginx(siteConf: string, folder: string, port: number): Promise<RealServer> {
  mkdirSync(path.join(folder, 'logs'), { recursive: true });
  return startProcess('nginx', writeNginxConf(folder, siteConf), port);
}

/** Caddy from a Caddyfile, with its data and config folders inside `folder`. */
export async function startCaddy(caddyfile: string, folder: string, port: number): Promise<RealServer> {
  const env = { ...process.env, HOME: folder, XDG_DATA_HOME: path.join(folder, 'data'), XDG_CONFIG_HOME: path.join(folder, 'config') };
  const validate = spawnSync('caddy', ['validate', '--config', caddyfile, '--adapter', 'caddyfile'], { encoding: 'utf8', env });
  if (validate.status !== 0) throw new Error(`caddy validate rejected the Caddyfile:\n${validate.stderr}`);
  return startProcess('caddy', ['run', '--config', caddyfile, '--adapter', 'caddyfile'], port, env);
}

export async function startProcess(command: string, args: string[], port: number, env = process.env): Promise<RealServer> {
  const child = spawn(command, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  await waitForPort(port, child, () => stderr);
  return { url: `http://127.0.0.1:${port}`, stop: () => stopProcess(child) };
}

async function waitForPort(port: number, child: ChildProcess, stderr: () => string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode} before listening:\n${stderr()}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => (socket.destroy(), resolve(true)));
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  child.kill('SIGKILL');
  throw new Error(`server did not listen on port ${port} within 15 s:\n${stderr()}`);
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}
