/**
 * `npm run dev`: the API with reload on port 3001 and Vite's dev server on 5173 (proxying /api).
 * `VITE_XSTATE_INSPECT=1 npm run dev` attaches Stately's inspector to every flow;
 * `VITE_XSTATE_INSPECT=log npm run dev` keeps an offline event log in the console.
 */
import { spawn, type ChildProcess } from 'node:child_process';

const apiPort = process.env.API_PORT ?? '3001';
const children: ChildProcess[] = [];
const run = (cmd: string, args: string[], env: Record<string, string>) => {
  const child = spawn(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  child.on('exit', (code) => shutdown(code ?? 0));
  children.push(child);
};
let stopping = false;
function shutdown(code: number) {
  if (stopping) return;
  stopping = true;
  for (const c of children) c.kill('SIGTERM');
  process.exit(code);
}
process.on('SIGINT', () => shutdown(0));
process.on('SIGTERM', () => shutdown(0));

run('npx', ['tsx', 'watch', '--clear-screen=false', 'server/main.ts'], {
  PORT: apiPort,
  STATIC_DIR: '.no-static',
});
run('npx', ['vite'], { API_PORT: apiPort });
