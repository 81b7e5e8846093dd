import type { AnyStateMachine, StateValue } from 'xstate';

type Node = { path: string[]; states: Record<string, Node>; always?: Array<{ guard?: unknown }> };

/**
 * Every leaf state (atomic or final) of a machine, as dot paths; but a leaf never at rest (it
 * leaves at once by an eventless transition without a guard, as `kycAssist.start` does): no screen
 * ever shows it.
 */
export function leafStates(machine: AnyStateMachine): string[] {
  const out: string[] = [];
  const walk = (node: Node) => {
    const children = Object.values(node.states);
    const passing = node.always?.some((t) => !t.guard) ?? false;
    if (!children.length && !passing) out.push(node.path.join('.'));
    children.forEach(walk);
  };
  walk(machine.root as unknown as Node);
  return out.sort();
}

/** The leaf paths a snapshot's value is in (several for parallel states). */
export function leavesOf(value: StateValue, prefix: string[] = []): string[] {
  if (typeof value === 'string') return [[...prefix, value].join('.')];
  return Object.entries(value).flatMap(([key, child]) =>
    child === undefined
      ? [[...prefix, key].join('.')]
      : leavesOf(child as StateValue, [...prefix, key]),
  );
}

export function isMachine(x: unknown): x is AnyStateMachine {
  return (
    typeof x === 'object' && x !== null && 'root' in x && 'resolveState' in x && 'provide' in x
  );
}

export type SnapshotLike = { value: StateValue; machine: { id: string } };

export function isSnapshot(x: unknown): x is SnapshotLike {
  return typeof x === 'object' && x !== null && 'value' in x && 'machine' in x && 'context' in x;
}

/**
 * A snapshot and the children it carries, the way a persisted snapshot does (`children: { id:
 * { snapshot, src } }`): a story of the wizard restored with its step's child at a child fixture
 * shows that child's state too. Live children (actor refs) carry no `snapshot` field.
 */
export function withChildren(s: SnapshotLike): SnapshotLike[] {
  const children = Object.values((s as { children?: Record<string, unknown> }).children ?? {})
    .map((c) => (c as { snapshot?: unknown } | undefined)?.snapshot)
    .filter(isSnapshot);
  return [s, ...children.flatMap(withChildren)];
}
