import { describe, expect, it } from 'vitest';
import { loadIdentityConfig } from '../../server/identity/config';
import { checkGates } from '../../server/identity/gates';
import { hints } from '../../server/identity/hints';
import {
  FINGERPRINT_H,
  FINGERPRINT_W,
  fingerprint,
  fingerprintDistance,
  fingerprintDistanceFrom,
  hamming64,
  prepareFingerprint,
  sniffImage,
} from '../../server/identity/image';
import { blinkDecider, type BlinkState } from '../../server/identity/liveness';
import { fixPry, readTd1 } from '../../server/identity/mrz';
import { bands } from '../../server/identity/store';
import type { FaceObservation, FrameAnalysis } from '../../server/identity/types';
import { makePeople, mrzName, td1 } from '../fixtures/cedula';

const config = loadIdentityConfig({});
const decider = blinkDecider({
  ...config.liveness,
  continuityThreshold: config.continuityThreshold,
});
const me = Array.from({ length: 1024 }, (_, i) => Math.sin(i));
const other = Array.from({ length: 1024 }, (_, i) => Math.cos(i * 3));

const face = (ear: number, o: Partial<FaceObservation> = {}): FaceObservation => ({
  box: [220, 140, 200, 200],
  score: 1,
  ear: { left: ear, right: ear, mean: ear },
  luminance: 140,
  ...o,
});
const frame = (faces: FaceObservation[], o: Partial<FrameAnalysis> = {}): FrameAnalysis => ({
  width: 640,
  height: 480,
  luminance: 120,
  faces,
  timings: { decodeMs: 0, detectMs: 0 },
  ...o,
});

describe('gates', () => {
  it('passes one well-lit, large, centred face', () => {
    expect(checkGates(frame([face(0.3)]), config).ok).toBe(true);
  });
  it.each([
    ['no face', frame([]), 'no_face', hints.noFace],
    [
      'several faces',
      frame([face(0.3), face(0.3, { box: [10, 10, 200, 200] })]),
      'several_faces',
      hints.severalFaces,
    ],
    [
      'too far (small face)',
      frame([face(0.3, { box: [290, 200, 60, 60] })]),
      'too_far',
      hints.tooFar,
    ],
    ['too dark frame', frame([face(0.3)], { luminance: 20 }), 'too_dark', hints.tooDark],
    ['too dark face', frame([face(0.3, { luminance: 25 })]), 'too_dark', hints.tooDark],
    [
      'not centred',
      frame([face(0.3, { box: [430, 140, 200, 200] })]),
      'not_centred',
      hints.notCentred,
    ],
  ])('%s', (_name, f, gate, hint) => {
    const r = checkGates(f, config);
    expect(r.ok).toBe(false);
    expect(r.failed).toContain(gate);
    expect(r.hints).toContain(hint);
  });
  it('a near-black frame answers only "too dark", even if a false face is found', () => {
    const r = checkGates(
      frame([face(0.3, { box: [300, 220, 24, 24], luminance: 3 })], { luminance: 4 }),
      config,
    );
    expect(r.failed).toContain('too_dark');
  });
});

describe('blink decider', () => {
  const run = (
    frames: Array<{ ear: number; emb?: number[]; box?: FaceObservation['box'] }>,
    start = decider.initial(),
    t0 = 1000,
  ) => {
    let s: BlinkState = start;
    const out = frames.map((f, i) => {
      const step = decider.step(s, {
        face: face(f.ear, { embedding: f.emb, ...(f.box ? { box: f.box } : {}) }),
        now: t0 + i * 700,
      });
      s = step.state;
      return step;
    });
    return { s, out };
  };
  const open = { ear: 0.33, emb: me };
  const openNoEmb = { ear: 0.33 };
  const closed = { ear: 0.14, emb: me };

  it('counts open -> closed -> open as one blink and is live after three', () => {
    const { s, out } = run([
      open,
      open,
      openNoEmb,
      closed,
      open,
      closed,
      open,
      closed,
      openNoEmb,
      open,
    ]);
    expect(out.map((o) => o.live)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
      false,
      false,
      false,
      true,
    ]);
    expect(s.blinks).toBe(3);
    expect(out[9]!.feedback).toEqual([hints.done]);
    expect(out[4]!.feedback).toEqual([hints.blink(1, 3)]);
  });

  it('does not count a reopening without continuity evidence (no description)', () => {
    const { s } = run([
      open,
      open,
      { ear: 0.14 },
      openNoEmb,
      { ear: 0.14 },
      openNoEmb,
      { ear: 0.14 },
      openNoEmb,
    ]);
    expect(s.blinks).toBe(0);
    expect(s.phase).toBe('closed');
  });

  it('half-closed eyes are not a blink', () => {
    const { s } = run([open, open, { ear: 0.26, emb: me }, open, { ear: 0.27, emb: me }, open]);
    expect(s.blinks).toBe(0);
  });

  it('restarts when another face takes over', () => {
    const { s, out } = run([open, open, closed, open, { ear: 0.33, emb: other }]);
    expect(out[3]!.state.blinks).toBe(1);
    expect(out[4]!.feedback).toEqual([hints.otherFace]);
    expect(s.blinks).toBe(0);
    expect(s.phase).toBe('baseline');
  });

  it('asks to hold still and does not count a frame that moved', () => {
    const { s, out } = run([open, open, { ear: 0.14, emb: me, box: [300, 140, 200, 200] }]);
    expect(out[2]!.feedback).toEqual([hints.holdStill]);
    expect(s.phase).toBe('open');
  });

  it('the baseline is per face: a face with narrow eyes blinks relative to its own opening', () => {
    const narrow = { ear: 0.21, emb: me };
    const { s } = run([
      narrow,
      narrow,
      { ear: 0.1, emb: me },
      narrow,
      { ear: 0.1, emb: me },
      narrow,
      { ear: 0.1, emb: me },
      narrow,
    ]);
    expect(s.blinks).toBe(3);
  });

  it('expires after the time limit, counted from the first frame', () => {
    const limit = config.liveness.timeLimitMs;
    // The session waited longer than the limit before its first frame: the clock had not started.
    const t0 = 5 * limit;
    const first = decider.step(decider.initial(), { face: face(0.33, { embedding: me }), now: t0 });
    expect(first.state.startedAt).toBe(t0);
    expect(first.feedback).not.toContain(hints.timeUp);
    expect(decider.isTimeUp(first.state, t0 + limit)).toBe(false);
    expect(decider.isTimeUp(first.state, t0 + limit + 1)).toBe(true);
    const inTime = decider.step(first.state, { face: face(0.33), now: t0 + limit });
    expect(inTime.feedback).not.toContain(hints.timeUp);
    const late = decider.step(inTime.state, { face: face(0.33), now: t0 + limit + 1 });
    expect(late.feedback).toEqual([hints.timeUp]);
    expect(late.state.phase).toBe('expired');
    expect(decider.isTimeUp(late.state, 0)).toBe(true);
    expect(decider.idle(late.state, 0, []).feedback).toEqual([hints.timeUp]);
  });

  it('a frame that fails the gates starts the clock too', () => {
    const limit = config.liveness.timeLimitMs;
    const idle = decider.idle(decider.initial(), 1000, [hints.noFace]);
    expect(idle.state.startedAt).toBe(1000);
    expect(decider.idle(idle.state, 1000 + limit + 1, []).feedback).toEqual([hints.timeUp]);
  });

  it('asks for an embedding on the first frame and on the reopening, not on open or closed frames', () => {
    const s0 = decider.initial();
    expect(decider.needsEmbedding(s0).always).toBe(true);
    expect(decider.needsEmbedding(run([open]).s).always).toBe(false);
    const { s } = run([open, openNoEmb]);
    expect(s.phase).toBe('open');
    const need = decider.needsEmbedding(s);
    expect(need.always).toBe(false);
    expect(need.earBelow).toBeUndefined();
    const closedState = decider.step(s, { face: face(0.14), now: 5000 }).state;
    // Waiting for the reopening: the worker describes the frame that reopens (blink tracking from
    // `closed`), not the next frame whatever it shows.
    expect(decider.needsEmbedding(closedState)).toMatchObject({
      always: false,
      blink: { closed: true },
    });
  });

  it('plans a request of several frames: all measured until the baseline, then blink tracking', () => {
    expect(decider.needsEmbedding(decider.initial())).toMatchObject({
      analyseAll: true,
      blink: { baseline: null, closed: false },
    });
    const { s } = run([open, openNoEmb]);
    const need = decider.needsEmbedding(s);
    expect(need.analyseAll).toBeFalsy();
    expect(need.blink?.baseline).toBeCloseTo(s.openSamples[0]!, 5);
    const closedState = decider.step(s, { face: face(0.14), now: 5000 }).state;
    expect(decider.needsEmbedding(closedState).blink?.closed).toBe(true);
  });
});

describe('fingerprints', () => {
  it('sniffs JPEG and PNG by magic bytes only', () => {
    expect(sniffImage(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toBe('jpeg');
    expect(sniffImage(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe('png');
    expect(sniffImage(Buffer.from('GIF89a'))).toBeNull();
    expect(sniffImage(Buffer.from('<svg'))).toBeNull();
  });
  it('distance ignores brightness and contrast; hamming counts bits', () => {
    const a = Uint8Array.from({ length: 100 }, (_, i) => (i * 37) % 200);
    const b = a.map((v) => v * 0.8 + 20);
    expect(fingerprintDistance(a, b)).toBeLessThan(0.6);
    const c = Uint8Array.from({ length: 100 }, (_, i) => (i * 53) % 200);
    expect(fingerprintDistance(a, c)).toBeGreaterThan(10);
    expect(hamming64(0b1011n, 0b0001n)).toBe(2);
    // All 64 bits, either word, signed or not (the database stores dHashes as signed bigint).
    expect(hamming64(-1n, 0n)).toBe(64);
    expect(hamming64(0xffff_ffff_ffff_ffffn, 0n)).toBe(64);
    expect(hamming64(1n << 63n, 0n)).toBe(1);
    expect(hamming64(BigInt.asIntN(64, 1n << 63n), 1n << 63n)).toBe(0);
    expect(hamming64(0xffff_ffff_0000_0000n, 0x0000_0000_ffff_ffffn)).toBe(64);
    expect(hamming64(0x8000_0001_8000_0001n, 0n)).toBe(4);
  });
  it('measures a prepared candidate as the plain formula does, and gives up past max', () => {
    /** The distance as defined: mean absolute difference of the two normalised thumbnails. */
    const reference = (a: Uint8Array, b: Uint8Array) => {
      const norm = (v: Uint8Array) => {
        const mean = v.reduce((s, x) => s + x, 0) / v.length;
        const sd = Math.sqrt(v.reduce((s, x) => s + (x - mean) ** 2, 0) / v.length);
        return Array.from(v, (x) => (x - mean) * (50 / Math.max(1, sd)));
      };
      const [na, nb] = [norm(a), norm(b)];
      return na.reduce((s, x, i) => s + Math.abs(x - nb[i]!), 0) / a.length;
    };
    const thumbs = [3, 5, 7].map((k) => Uint8Array.from({ length: 1728 }, (_, i) => (i * k) % 251));
    const near = thumbs[0]!.map((v, i) => Math.min(255, v + (i % 3)));
    const from = fingerprintDistanceFrom(thumbs[0]!);
    for (const b of [...thumbs, near]) {
      const d = from(b);
      expect(d).toBeCloseTo(reference(thumbs[0]!, b), 9);
      expect(from(prepareFingerprint(b))).toBe(d);
      expect(from(prepareFingerprint(b), d)).toBe(d);
      if (d > 0) expect(from(prepareFingerprint(b), d * 0.99)).toBe(Number.POSITIVE_INFINITY);
    }
    expect(from(prepareFingerprint(new Uint8Array(10)))).toBe(Number.POSITIVE_INFINITY);
  });
  it('takes the thumbnail and the dHash as area averages of the luma, at any frame size', () => {
    /** A w x h frame whose grey level is g(x, y) on every channel. */
    const frame = (w: number, h: number, g: (x: number, y: number) => number) => ({
      width: w,
      height: h,
      data: Buffer.from(
        Array.from({ length: w * h * 3 }, (_, i) =>
          g(Math.floor(i / 3) % w, Math.floor(i / 3 / w)),
        ),
      ),
    });
    // Brighter to the left: every dHash bit (left brighter than right) is set; to the right, none.
    const left = fingerprint(frame(160, 180, (x) => 255 - x));
    expect(left.dhash).toBe(0xffff_ffff_ffff_ffffn);
    expect(fingerprint(frame(160, 180, (x) => x)).dhash).toBe(0n);
    // The thumbnail is the mean of the area each of its pixels covers, 10/3 columns each: the first
    // covers x 0, 1, 2 and a third of 3 (mean x 1.2), the last a third of 156 and 157-159 (157.8).
    expect(left.thumb).toHaveLength(FINGERPRINT_W * FINGERPRINT_H);
    expect(left.thumb[0]).toBe(Math.round(255 - 1.2));
    expect(left.thumb[FINGERPRINT_W - 1]).toBe(Math.round(255 - 157.8));
    // Luma, not one channel: a pure green frame is 0.587 of white.
    const green = fingerprint({
      width: 64,
      height: 64,
      data: Buffer.from(Array.from({ length: 64 * 64 * 3 }, (_, i) => (i % 3 === 1 ? 200 : 0))),
    });
    expect(green.thumb[0]).toBe(Math.round(0.587 * 200));
    // A frame smaller than the thumbnail (IDENTITY_MIN_IMAGE_SIDE may be 16) is stretched.
    const tiny = fingerprint(frame(16, 16, (_x, y) => y * 10));
    expect(tiny.thumb).toHaveLength(FINGERPRINT_W * FINGERPRINT_H);
    expect(tiny.thumb[0]).toBe(0);
    expect(tiny.thumb.at(-1)).toBe(150);
  });
  it('splits a dHash into four 16-bit bands', () => {
    expect(bands(0x0001_0002_0003_0004n)).toEqual([1, 2, 3, 4]);
  });
});

describe('MRZ', () => {
  const [p] = makePeople(1, 99);
  const lines = td1(p!);
  it('reads a clean TD1 with valid check digits', () => {
    const r = readTd1(`REPUBLICA\n${lines.join('\n')}\n`);
    expect(r?.fields.documentNumber).toBe(p!.documentNumber);
    expect(r?.fields.birthDate).toBe(p!.birth);
    expect(r?.fields.sex).toBe(p!.sex);
  });
  it('fixes PRY confusions, spaces and K-for-< misreads', () => {
    const bad = [
      lines[0].replace('IDPRY', '1DPRV'),
      lines[1].replace('PRY', 'PBY').replace(/<<<</, '<K<K'),
      lines[2].replace(/<<<$/, 'KKK'),
    ];
    expect(fixPry(bad.map((l) => l.padEnd(30, '<')))[0].slice(0, 5)).toBe('IDPRY');
    const r = readTd1(bad.map((l) => l.split('').join(' ')).join('\n'));
    expect(r?.fields.issuingState).toBe('PRY');
    expect(r?.fields.nationality).toBe('PRY');
  });
  it('keeps names that start with C, E, K or L after the fillers', () => {
    const l3 = 'BAEZ<GONZALEZ<<CELESTE<ELENA<<';
    const r = readTd1([lines[0].replace(/<{3}$/, 'KKK'), lines[1], l3].join('\n'));
    expect(r?.fields.names).toEqual(['CELESTE', 'ELENA']);
  });
  it('reads past what the OCR saw before a line (the edge of the MRZ panel read as a character)', () => {
    // As a photographed back was read: 'I', '3' and 'Q' before the lines, the third kept whole.
    const r = readTd1([`I${lines[0]}`, `3${lines[1]}`, `Q${lines[2]}`].join('\n'));
    expect(r?.lines).toEqual(lines);
    expect(r?.fields.surnames).toEqual(p!.surnames.map(mrzName));
  });
  it('reads a letter where the MRZ has a digit as that digit, when the check digits agree', () => {
    // '1' read 'T' in the number, '0' read 'D' in the dates, the composite check digit '4' read 'A'
    // (the MRZ library itself corrects only B, G, I, O, S and Z, and not in the number).
    expect(lines).toEqual([
      'IDPRY1927827<<0<<<<<<<<<<<<<<<',
      '8208053F3307102PRY<<<<<<<<<<<4',
      'BENITEZ<OVIEDO<<MARIA<SOFIA<<<',
    ]);
    const read = ['IDPRYT927827<<0<<<<<<<<<<<<<<<', '82D8053F33D71D2PRY<<<<<<<<<<<A', lines[2]];
    const r = readTd1(read.join('\n'));
    expect(r?.fields.documentNumber).toBe(p!.documentNumber);
    expect(r?.fields.birthDate).toBe(p!.birth);
    expect(r?.fields.expirationDate).toBe(p!.expiry);
    // A wrong digit read as a letter is still refused by its check digit.
    expect(readTd1([read[0], read[1]!.replace('F33D', 'F33A'), read[2]].join('\n'))).toBeNull();
  });
  it('refuses a read whose check digit is wrong', () => {
    const wrong = lines[1].slice(0, 6) + ((Number(lines[1][6]) + 1) % 10) + lines[1].slice(7);
    expect(readTd1([lines[0], wrong, lines[2]].join('\n'))).toBeNull();
  });
});
