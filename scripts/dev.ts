/**
 * `npm run dev`: the API with reload on port 3001 and Vite's dev server on 5173 (proxying /api).
 * `VITE_XSTATE_INSPECT=1 npm run dev` attaches Stately's inspector to every flow (its hosted UI
 * needs internet access); `VITE_XSTATE_INSPECT=log npm run dev` keeps an offline event log in the
 * console (no internet needed).
 *
 * It refuses to start, saying why, when the embedded database's folder is in use (`npm start` or
 * `npm run serve` holds it: the API would stop at once and leave Vite with nothing behind it) or a
 * port it needs is taken. Each child runs in a process group of its own; SIGTERM or SIGINT stops
 * each child (tsx watch stops the server it runs, Vite its helpers), waits for them, and then ends
 * what is left of their groups.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { lockHolder } from '../server/db/pglite-lock';

const apiPort = Number(process.env.API_PORT ?? '3001');
const webPort = Number(process.env.PORT ?? '5173');
const dataDir = process.env.DATA_DIR ?? '.data';
const bin = (name: string) => path.join('node_modules', '.bin', name);

type Command = { name: string; cmd: string; args: string[]; env: Record<string, string> };

/**
 * The two processes. DEV_COMMANDS (a JSON array of `{ name, cmd, args }`) replaces them: the
 * test of this script (tests/server/dev-script.test.ts) runs small stand-ins instead of a server.
 */
function commands(): Command[] {
  if (process.env.DEV_COMMANDS)
    return (JSON.parse(process.env.DEV_COMMANDS) as Omit<Command, 'env'>[]).map((c) => ({
      ...c,
      env: {},
    }));
  return [
    {
      name: 'api',
      cmd: bin('tsx'),
      args: ['watch', '--clear-screen=false', 'server/main.ts'],
      env: { PORT: String(apiPort), STATIC_DIR: '.no-static' },
    },
    { name: 'vite', cmd: bin('vite'), args: [], env: { API_PORT: String(apiPort) } },
  ];
}

/** True when nothing listens on the port (on the address the servers use). */
function portFree(port: number, host = process.env.HOST ?? '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, host, () => probe.close(() => resolve(true)));
  });
}

/** Why the dev servers cannot start here, or null. */
async function refusal(): Promise<string | null> {
  if (!process.env.DATABASE_URL) {
    const pid = await lockHolder(dataDir);
    if (pid !== null)
      return (
        `npm run dev: the embedded database in ${path.resolve(dataDir)} is in use by process ${pid} ` +
        `(probably \`npm start\` or \`npm run serve\`). Stop it first, or give the dev servers a ` +
        `folder of their own: DATA_DIR=.data-dev npm run dev. Nothing was started.`
      );
  }
  if (process.env.DEV_COMMANDS) return null;
  for (const [port, what] of [
    [apiPort, 'API_PORT'],
    [webPort, 'PORT'],
  ] as const) {
    if (!(await portFree(port)))
      return `npm run dev: port ${port} is in use (${what}). Stop what listens there, or set ${what}. Nothing was started.`;
  }
  return null;
}

const children: ChildProcess[] = [];
let stopping: Promise<void> | null = null;

/**
 * Signals a child (`group`: its whole process group; it leads one, spawned detached). A stop is
 * asked of the child alone: tsx watch relays it to the server it runs, so a SIGTERM to the group
 * reached the server twice and its second-signal rule exited at once, skipping the drain ('second
 * signal: exiting now', issue 43 item 11); Vite stops on its own SIGTERM.
 */
function signal(child: ChildProcess, sig: NodeJS.Signals, group = false): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(group ? -child.pid : child.pid, sig);
  } catch {
    // it is gone already
  }
}

const exited = (child: ChildProcess) =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise<void>((resolve) => child.once('exit', () => resolve()));

/** SIGTERM to every child, SIGKILL to their groups after 5 s; then this process exits. */
function shutdown(code: number): Promise<void> {
  stopping ??= (async () => {
    for (const c of children) signal(c, 'SIGTERM');
    const killer = setTimeout(() => children.forEach((c) => signal(c, 'SIGKILL', true)), 5000);
    await Promise.all(children.map(exited));
    clearTimeout(killer);
    // tsx watch's server or Vite's helpers may outlive their leader: the group goes too.
    for (const c of children) {
      try {
        if (c.pid !== undefined) process.kill(-c.pid, 'SIGKILL');
      } catch {
        // nothing left
      }
    }
    process.exit(code);
  })();
  return stopping;
}

async function main(): Promise<void> {
  const why = await refusal();
  if (why) {
    console.error(why);
    process.exit(1);
  }
  process.on('SIGINT', () => void shutdown(0));
  process.on('SIGTERM', () => void shutdown(0));
  for (const c of commands()) {
    const child = spawn(c.cmd, c.args, {
      stdio: 'inherit',
      detached: true,
      env: { ...process.env, ...c.env },
    });
    child.on('exit', (code) => {
      if (!stopping)
        console.error(`npm run dev: ${c.name} stopped (${code ?? 'signal'}); stopping the rest.`);
      void shutdown(code ?? 0);
    });
    child.on('error', (err) => {
      console.error(`npm run dev: ${c.name} could not start: ${err.message}`);
      void shutdown(1);
    });
    children.push(child);
  }
}

void main();
