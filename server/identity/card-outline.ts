import { CARD_ASPECT, dist, type Point } from './card-text';
import { withMats, type Cv, type Mat } from './opencv';

/**
 * The card's outline in a phone photo (card-geometry.ts's step 1): external contours of three binary
 * maps (edges; the card lighter than its background; darker), each reduced to a quadrilateral, kept
 * when it has a card's proportions and nearly right angles; the largest wins.
 */

export type Quad = [Point, Point, Point, Point];

/** A glare spot burns less than this share of the photo (a white card in bright light, more). */
const MAX_GLARE_SPOT = 0.04;

/** Corners ordered top-left, top-right, bottom-right, bottom-left, the long side on top. */
export function orderQuad(points: Point[]): Quad {
  const c = {
    x: points.reduce((s, p) => s + p.x, 0) / points.length,
    y: points.reduce((s, p) => s + p.y, 0) / points.length,
  };
  const byAngle = [...points].sort(
    (a, b) => Math.atan2(a.y - c.y, a.x - c.x) - Math.atan2(b.y - c.y, b.x - c.x),
  );
  // Clockwise in image coordinates from the corner nearest the top-left.
  let start = 0;
  byAngle.forEach((p, i) => {
    if (p.x + p.y < byAngle[start]!.x + byAngle[start]!.y) start = i;
  });
  let q = [0, 1, 2, 3].map((i) => byAngle[(start + i) % 4]!) as Quad;
  // A card photographed upright (portrait): turn so its long side is on top.
  if (dist(q[0], q[1]) + dist(q[2], q[3]) < dist(q[1], q[2]) + dist(q[3], q[0]))
    q = [q[3], q[0], q[1], q[2]];
  return q;
}

export function quadArea(q: Quad): number {
  let a = 0;
  for (let i = 0; i < 4; i++) {
    const p = q[i]!;
    const n = q[(i + 1) % 4]!;
    a += p.x * n.y - n.x * p.y;
  }
  return Math.abs(a) / 2;
}

/** A card's shape seen with up to about 15 degrees of tilt: proportions and corner angles. */
export function plausibleCard(q: Quad, imageArea: number): boolean {
  const area = quadArea(q);
  if (area < 0.12 * imageArea || area > 0.98 * imageArea) return false;
  const top = dist(q[0], q[1]);
  const bottom = dist(q[3], q[2]);
  const left = dist(q[0], q[3]);
  const right = dist(q[1], q[2]);
  const aspect = (top + bottom) / (left + right);
  // Not the portrait photo printed on the front (1.27), nor a strip of the card.
  if (aspect < CARD_ASPECT * 0.83 || aspect > CARD_ASPECT * 1.3) return false;
  if (Math.min(top, bottom) / Math.max(top, bottom) < 0.7) return false;
  if (Math.min(left, right) / Math.max(left, right) < 0.7) return false;
  for (let i = 0; i < 4; i++) {
    const p = q[i]!;
    const a = q[(i + 3) % 4]!;
    const b = q[(i + 1) % 4]!;
    const cos =
      ((a.x - p.x) * (b.x - p.x) + (a.y - p.y) * (b.y - p.y)) / (dist(a, p) * dist(b, p) || 1);
    if (Math.abs(cos) > Math.cos((62 * Math.PI) / 180)) return false;
  }
  return true;
}

const matPoints = (m: Mat): Point[] => {
  const out: Point[] = [];
  for (let i = 0; i < m.rows; i++) out.push({ x: m.data32S[i * 2], y: m.data32S[i * 2 + 1] });
  return out;
};

/** The quadrilateral of one contour: its hull simplified to 4 corners, else its rotated box. */
function contourQuad(cv: Cv, contour: Mat): { quad: Quad; fill: number } {
  return withMats((keep) => {
    const hull = keep(new cv.Mat());
    cv.convexHull(contour, hull, false, true);
    const perimeter = cv.arcLength(hull, true);
    let quad: Quad | null = null;
    for (const eps of [0.02, 0.035, 0.05]) {
      const approx = keep(new cv.Mat());
      cv.approxPolyDP(hull, approx, eps * perimeter, true);
      if (approx.rows === 4) {
        quad = orderQuad(matPoints(approx));
        break;
      }
    }
    if (!quad) {
      const box = cv.minAreaRect(hull);
      quad = orderQuad(cv.RotatedRect.points(box) as Point[]);
    }
    return { quad, fill: cv.contourArea(contour) / (quadArea(quad) || 1) };
  });
}

/**
 * The card's outline in a small RGB photo (coordinates of that image), or null. Candidates come
 * from edges (thresholds from the photo's own median), from the colour distance to the background
 * (the photo's border), and from the card being lighter or darker than the rest.
 */
export function findCardQuad(cv: Cv, rgb: Mat): Quad | null {
  return withMats((keep) => {
    const imageArea = rgb.rows * rgb.cols;
    const grey = keep(new cv.Mat());
    cv.cvtColor(rgb, grey, cv.COLOR_RGB2GRAY);
    const blurred = keep(new cv.Mat());
    cv.GaussianBlur(grey, blurred, new cv.Size(7, 7), 0);
    const maps: Mat[] = [];
    const k3 = keep(cv.getStructuringElement(cv.MORPH_RECT, new cv.Size(3, 3)));
    // Burnt pixels of a glare spot (often half on the card and half on the table) are neither card
    // nor table: left out of the regions, a spot at the card's edge is a notch (the hull fills it),
    // not a bump that drags the outline's corner off the card. Not when much of the photo is burnt
    // (a white card on a white table in bright light: the card is burnt too).
    const notBurnt = keep(new cv.Mat());
    cv.threshold(grey, notBurnt, 247, 255, cv.THRESH_BINARY_INV);
    const spot = 1 - cv.countNonZero(notBurnt) / imageArea < MAX_GLARE_SPOT;
    cv.erode(notBurnt, notBurnt, k3, new cv.Point(-1, -1), 2);
    // Faint edges (a light card on a light table) to strong ones (a textured table).
    for (const [low, high] of [
      [8, 24],
      [20, 60],
      [40, 120],
    ] as const) {
      const edges = keep(new cv.Mat());
      cv.Canny(blurred, edges, low, high);
      cv.dilate(edges, edges, k3, new cv.Point(-1, -1), 2);
      maps.push(edges);
    }
    const k9 = keep(cv.getStructuringElement(cv.MORPH_RECT, new cv.Size(9, 9)));
    const distance = keep(backgroundDistance(cv, rgb));
    // Otsu's threshold, or (the colour distance) one just above the table's own variation: a light
    // card on a light table differs from it by less than the card's print does (Otsu then splits
    // the print from card and table alike).
    const binaries: Array<[Mat, number, number | null]> = [
      [distance, cv.THRESH_BINARY, null],
      [distance, cv.THRESH_BINARY, tableVariation(distance)],
      [blurred, cv.THRESH_BINARY, null],
      [blurred, cv.THRESH_BINARY_INV, null],
    ];
    for (const [src, mode, level] of binaries) {
      const bin = keep(new cv.Mat());
      if (level === null) cv.threshold(src, bin, 0, 255, mode | cv.THRESH_OTSU);
      else cv.threshold(src, bin, level, 255, mode);
      if (spot && mode === cv.THRESH_BINARY) cv.bitwise_and(bin, notBurnt, bin);
      cv.morphologyEx(bin, bin, cv.MORPH_CLOSE, k9);
      cv.morphologyEx(bin, bin, cv.MORPH_OPEN, k9);
      maps.push(bin);
    }
    let best: { quad: Quad; score: number } | null = null;
    for (const map of maps) {
      const contours = keep(new cv.MatVector());
      const hierarchy = keep(new cv.Mat());
      cv.findContours(map, contours, hierarchy, cv.RETR_EXTERNAL, cv.CHAIN_APPROX_SIMPLE);
      for (let i = 0; i < contours.size(); i++) {
        const contour = keep(contours.get(i));
        if (cv.contourArea(contour) < 0.1 * imageArea) continue;
        // A region that reaches two sides of the photo or more is the table's texture joined up (or
        // the photo's own frame), not a card lying in it (a photo cropped to the card has no outline).
        const r = cv.boundingRect(contour);
        const sides =
          Number(r.x <= 2) +
          Number(r.y <= 2) +
          Number(r.x + r.width >= rgb.cols - 2) +
          Number(r.y + r.height >= rgb.rows - 2);
        if (sides >= 2) continue;
        const { quad, fill } = contourQuad(cv, contour);
        if (fill < 0.85 || !plausibleCard(quad, imageArea)) continue;
        const score = quadArea(quad) * fill;
        if (!best || score > best.score) best = { quad, score };
      }
    }
    return best?.quad ?? null;
  });
}

export function medianOf(values: Uint8Array): number {
  const hist = new Array<number>(256).fill(0);
  for (const v of values) hist[v]!++;
  let seen = 0;
  for (let i = 0; i < 256; i++) if ((seen += hist[i]!) >= values.length / 2) return i;
  return 128;
}

/** Values of one channel of the photo's border band (3% of its shorter side), where the table is. */
function borderValues(m: Mat, channel = 0, channels = 1): Uint8Array {
  const d = m.data as Uint8Array;
  const w = m.cols;
  const h = m.rows;
  const band = Math.max(2, Math.round(Math.min(w, h) * 0.03));
  const out: number[] = [];
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++)
      if (x < band || x >= w - band || y < band || y >= h - band)
        out.push(d[(y * w + x) * channels + channel]!);
  return Uint8Array.from(out);
}

/**
 * A level of colour distance above the table's own variation (its grain, noise and light): the
 * 95th percentile of the border band's distances, plus a margin.
 */
function tableVariation(distance: Mat): number {
  const v = [...borderValues(distance)].sort((a, b) => a - b);
  const p95 = v[Math.floor(0.95 * v.length)] ?? 0;
  return Math.max(6, Math.round(p95 * 1.3 + 3));
}

/** Per pixel, how far its colour is from the background's (the median of the photo's border). */
function backgroundDistance(cv: Cv, rgb: Mat): Mat {
  const d = rgb.data as Uint8Array;
  const w = rgb.cols;
  const h = rgb.rows;
  const bg = [0, 1, 2].map((c) => medianOf(borderValues(rgb, c, 3)));
  const out = new cv.Mat(h, w, cv.CV_8UC1);
  const o = out.data as Uint8Array;
  for (let i = 0; i < w * h; i++) {
    const dr = d[i * 3]! - bg[0]!;
    const dg = d[i * 3 + 1]! - bg[1]!;
    const db = d[i * 3 + 2]! - bg[2]!;
    o[i] = Math.min(255, Math.round(Math.sqrt(dr * dr + dg * dg + db * db)));
  }
  cv.GaussianBlur(out, out, new cv.Size(5, 5), 0);
  return out;
}
