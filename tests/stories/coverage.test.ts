import { describe, expect, it } from 'vitest';
import { isMachine, isSnapshot, leafStates, leavesOf, withChildren } from './leaves';

// Every machine of every flow, found by file name: a new machine is covered without a list to edit.
const machineModules = import.meta.glob('../../machines/*/*.machine.ts', { eager: true });
const fixtureModules = import.meta.glob('../../machines/*/*.fixtures.ts', { eager: true });
const storyModules = import.meta.glob('../../stories/**/*.stories.tsx', { eager: true });

const machines = new Map(
  Object.values(machineModules)
    .flatMap((m) => Object.values(m as Record<string, unknown>))
    .filter(isMachine)
    .map((m) => [m.id, m] as const),
);

function covered(snapshots: unknown[]): Map<string, Set<string>> {
  const byMachine = new Map<string, Set<string>>();
  for (const s of snapshots.filter(isSnapshot).flatMap(withChildren)) {
    const set = byMachine.get(s.machine.id) ?? new Set<string>();
    leavesOf(s.value).forEach((leaf) => set.add(leaf));
    byMachine.set(s.machine.id, set);
  }
  return byMachine;
}

const fixtureSnapshots = Object.values(fixtureModules).flatMap((m) =>
  Object.values(m as Record<string, unknown>).flatMap((f) =>
    typeof f === 'object' && f !== null && !isSnapshot(f) ? Object.values(f) : [f],
  ),
);
const storySnapshots = Object.values(storyModules).flatMap((m) =>
  Object.entries(m as Record<string, { parameters?: { snapshot?: unknown } }>)
    .filter(([name]) => name !== 'default')
    .map(([, story]) => story?.parameters?.snapshot),
);

describe('story coverage', () => {
  it('finds the machines of every flow', () => {
    expect([...machines.keys()]).toEqual(expect.arrayContaining(['login', 'session', 'dashboard']));
  });

  const fixtures = covered(fixtureSnapshots);
  const stories = covered(storySnapshots);
  for (const [id, machine] of machines) {
    it(`every leaf state of '${id}' has a fixture and a story`, () => {
      const leaves = leafStates(machine);
      const missingFixtures = leaves.filter((l) => !fixtures.get(id)?.has(l));
      const missingStories = leaves.filter((l) => !stories.get(id)?.has(l));
      expect({ id, missingFixtures, missingStories }).toEqual({
        id,
        missingFixtures: [],
        missingStories: [],
      });
    });
  }
});
