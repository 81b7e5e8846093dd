import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * No import circle among the project's own modules, type-only imports included (issue 41 item 5,
 * issue 42 item 4). Lint's import/no-cycle skips `import type`, so a circle made of type imports
 * (server/identity/config.ts -> liveness-challenge.ts -> liveness.ts -> config.ts) went unseen: this
 * walks every relative import and re-export, `import type` and `export type` too.
 */
const root = path.resolve(import.meta.dirname, '../..');
const AREAS = ['server', 'machines', 'contract', 'src'];
const SOURCE = /\.(ts|tsx)$/;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) return name === 'node_modules' ? [] : files(p);
    return SOURCE.test(name) && !name.endsWith('.d.ts') ? [p] : [];
  });
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^;]*?\sfrom\s+['"](\.[^'"]+)['"]/g;

function resolve(from: string, spec: string): string | null {
  const base = path.resolve(path.dirname(from), spec);
  for (const p of [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')])
    if (SOURCE.test(p) && statSync(p, { throwIfNoEntry: false })?.isFile()) return p;
  return null;
}

/** Every relative import of each file (resolved), type-only ones included. */
function importGraph(all: string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of all) {
    const text = readFileSync(file, 'utf8');
    const to = [...text.matchAll(IMPORT)].flatMap((m) => resolve(file, m[1]!) ?? []);
    graph.set(file, [...new Set(to)]);
  }
  return graph;
}

/** The graph's circles: each strongly connected component of more than one file (Tarjan). */
function circles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const comp: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        comp.push(w);
      } while (w !== v);
      if (comp.length > 1) out.push(comp.map((f) => path.relative(root, f)).sort());
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) visit(v);
  return out;
}

describe('import circles (type-only imports included)', () => {
  it('finds a circle made of type imports alone (the check can fail)', () => {
    const a = path.join(root, 'a.ts');
    const b = path.join(root, 'b.ts');
    const c = path.join(root, 'c.ts');
    expect(
      circles(
        new Map([
          [a, [b]],
          [b, [c]],
          [c, [a]],
        ]),
      ),
    ).toEqual([['a.ts', 'b.ts', 'c.ts']]);
  });

  it('server/, machines/, contract/ and src/ have none', () => {
    const graph = importGraph(AREAS.flatMap((a) => files(path.join(root, a))));
    expect(graph.size).toBeGreaterThan(300);
    expect(circles(graph)).toEqual([]);
  });
});
