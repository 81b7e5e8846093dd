/**
 * How often a colour sequence the face did not see passes for the one asked (issue 41): the
 * correlation the light judge computes (liveness-light-judge.ts: chromaticity deviations, colours
 * x channels) between the sequence asked and another, for every pair of one round's sequences
 * (LIGHT_COLOURS different colours of LIGHT_PALETTE in order: 720 of them), for the same colours in
 * another order, and for both rounds of a session at once (each round against its own other one:
 * the challenge passes on two rounds followed; random pairs, seeded). That is what a recording of another session, or a screen playing a sequence of its own,
 * shows at best, without noise: the share at or above each threshold is the chance a round of it
 * passes on the correlation alone. Figures, not a test.
 *   npx tsx bench/light-chance.ts [pairs of two rounds=200000]
 */
import { rng } from './gallery-scale';
import { runIfMain } from './_identity';
import { LIGHT_COLOURS, LIGHT_PALETTE, LIGHT_ROUNDS } from '../server/identity/liveness-light';
import { pearson, sequenceDeviations } from '../server/identity/liveness-light-judge';
import { LIGHT_THRESHOLDS } from '../server/identity/config';

/** Every order of `k` of `xs`. */
function orders<T>(xs: readonly T[], k: number): T[][] {
  if (k === 0) return [[]];
  return xs.flatMap((x, i) =>
    orders([...xs.slice(0, i), ...xs.slice(i + 1)], k - 1).map((rest) => [x, ...rest]),
  );
}

const THRESHOLDS = [
  0.6,
  0.7,
  LIGHT_THRESHOLDS.correlation,
  0.8,
  0.85,
  LIGHT_THRESHOLDS.alone,
  0.95,
];

function share(cs: number[]): string {
  return THRESHOLDS.map(
    (t) => `>= ${t}: ${((100 * cs.filter((c) => c >= t).length) / cs.length).toFixed(3)}%`,
  ).join(', ');
}

export async function main() {
  const pairs = Number(process.argv[2] ?? 200_000);
  const rounds = orders(LIGHT_PALETTE, LIGHT_COLOURS);
  const dev = rounds.map(sequenceDeviations);
  const one: number[] = [];
  const permuted: number[] = [];
  const key = (s: readonly string[]) => [...s].sort().join();
  for (let i = 0; i < rounds.length; i++)
    for (let j = 0; j < rounds.length; j++) {
      if (i === j) continue;
      const c = pearson(dev[i]!, dev[j]!);
      one.push(c);
      if (key(rounds[i]!) === key(rounds[j]!)) permuted.push(c);
    }
  console.log(`one round (${LIGHT_COLOURS} colours), ${one.length} pairs: ${share(one)}`);
  console.log(`the same colours in another order, ${permuted.length} pairs: ${share(permuted)}`);
  const r = rng(41);
  const pick = () => Math.floor(r.uniform() * rounds.length);
  const both: number[] = [];
  for (let n = 0; n < pairs; n++) {
    const each = Array.from({ length: LIGHT_ROUNDS }, () => pearson(dev[pick()]!, dev[pick()]!));
    both.push(Math.min(...each));
  }
  console.log(`every one of ${LIGHT_ROUNDS} rounds, ${pairs} random sessions: ${share(both)}`);
}

runIfMain(import.meta.url, main);
