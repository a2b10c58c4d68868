// Starts a build in a process group of its own, kills the whole group with SIGKILL once the build
// has started `stage`, then blocks this process's event loop for `holdMs` so that it cannot reap its
// child: the killed build stays a zombie, as it does under an init that reaps late or never.
// Prints `killed <pid>` (synchronously, before blocking) for the test to read.
//   node zombie-holder.mjs <stage> <holdMs> <node args of the build...>
import { spawn } from 'node:child_process';
import { writeSync } from 'node:fs';

const [stage, holdMs, ...buildArgs] = process.argv.slice(2);
const child = spawn(process.execPath, buildArgs, { detached: true, stdio: ['ignore', 'ignore', 'pipe'] });
let seen = '';
child.stderr.on('data', (chunk) => {
  seen += chunk.toString();
  if (!seen.includes(`${stage}: started`)) return;
  child.stderr.removeAllListeners('data');
  process.kill(-child.pid, 'SIGKILL');
  writeSync(1, `killed ${child.pid}\n`);
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Number(holdMs));
  process.exit(0);
});
child.on('exit', (code) => {
  writeSync(1, `ended on its own (${code}) before the kill:\n${seen}\n`);
  process.exit(1);
});
