import type { RgbImage } from './image';
import { withMats, type Cv, type Mat } from './opencv';

/**
 * Finding a cédula in a phone photo and straightening it, with OpenCV (opencv.ts), before either side
 * is read. Runs in the card worker thread (worker/card-worker.ts), never on the event loop.
 *
 * 1. The card's outline: external contours of three binary maps of a 640 px copy (edges; the card
 *    lighter than its background; darker), each reduced to a quadrilateral (polygon or rotated box),
 *    kept when it covers 12-98% of the photo, has a card's proportions (ID-1, 85.6 x 54 mm, 1.586)
 *    within what a 15 degree tilt gives, and nearly right angles; the largest rectangular one wins.
 * 2. A perspective warp of that quadrilateral to a canonical landscape card.
 * 3. Deskew by the text lines (characters merged into line blobs, their median angle): the residual
 *    after the warp, or all of it when no outline was found (a photo cropped to the card).
 * 4. What a patient can fix, measured on the card: light, glare, sharpness, how much of the photo
 *    the card takes.
 */
export type Point = { x: number; y: number };
type Quad = [Point, Point, Point, Point];

export const CARD_ASPECT = 85.6 / 54;

export type CardQuality = {
  /** Mean luma of the card, 0-255. */
  brightness: number;
  /** Share of the card's pixels burnt white (>= 250) when the card as a whole is not. */
  glare: number;
  /** Variance of the Laplacian of the card at 1000 px wide: low is soft (moved or out of focus). */
  sharpness: number;
  /** Share of the photo's area the card takes (1 when no outline was found). */
  fraction: number;
};

export type StraightenedCard = {
  image: RgbImage;
  /** The card's outline was found and warped (false: the photo was taken as the card, deskewed). */
  found: boolean;
  /** The rotation applied by the text-line deskew, degrees. */
  skew: number;
  /** Text lines seen on the card (see textLines). */
  textLines: number;
  quality: CardQuality;
};

const DETECT_SIDE = 640;
/** A glare spot burns less than this share of the photo (a white card in bright light, more). */
const MAX_GLARE_SPOT = 0.04;
const MAX_CARD_WIDTH = 1600;
const MIN_CARD_WIDTH = 1012;

const dist = (a: Point, b: Point) => Math.hypot(a.x - b.x, a.y - b.y);

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

function quadArea(q: Quad): number {
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
function findCardQuad(cv: Cv, rgb: Mat): Quad | null {
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

function medianOf(values: Uint8Array): number {
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

/** A text line: its angle, length (at 1000 px wide) and box (in the given image's pixels). */
type LineBlob = {
  angle: number;
  length: number;
  box: { x: number; y: number; w: number; h: number };
};

/**
 * The text lines of a landscape card image, at 1000 px wide: characters merged into line blobs by
 * a horizontal closing over `join` px gaps, kept when long and thin (not a photo, not the
 * guilloche's hairlines).
 */
function lineBlobs(cv: Cv, grey: Mat, join: number): LineBlob[] {
  return withMats((keep) => {
    const scale = 1000 / grey.cols;
    const resized = keep(new cv.Mat());
    cv.resize(grey, resized, new cv.Size(1000, Math.round(grey.rows * scale)), 0, 0, cv.INTER_AREA);
    // Without a 2% margin, where the table or the card's edge would ring the whole image.
    const mx = 20;
    const my = Math.round(resized.rows * 0.02);
    const small = keep(
      resized.roi(new cv.Rect(mx, my, resized.cols - 2 * mx, resized.rows - 2 * my)),
    );
    const bin = keep(new cv.Mat());
    cv.adaptiveThreshold(small, bin, 255, cv.ADAPTIVE_THRESH_MEAN_C, cv.THRESH_BINARY_INV, 25, 15);
    const kernel = keep(cv.getStructuringElement(cv.MORPH_RECT, new cv.Size(join, 3)));
    cv.morphologyEx(bin, bin, cv.MORPH_CLOSE, kernel);
    const contours = keep(new cv.MatVector());
    const hierarchy = keep(new cv.Mat());
    cv.findContours(bin, contours, hierarchy, cv.RETR_LIST, cv.CHAIN_APPROX_SIMPLE);
    const out: LineBlob[] = [];
    for (let i = 0; i < contours.size(); i++) {
      const c = keep(contours.get(i));
      const pts = cv.RotatedRect.points(cv.minAreaRect(c)) as Point[];
      const e1 = dist(pts[0]!, pts[1]!);
      const e2 = dist(pts[1]!, pts[2]!);
      const [a, b, long, short] =
        e1 >= e2 ? [pts[0]!, pts[1]!, e1, e2] : [pts[1]!, pts[2]!, e2, e1];
      if (long < 80 || long > 990 || long < 4 * short || short < 6 || short > 80) continue;
      let angle = (Math.atan2(b.y - a.y, b.x - a.x) * 180) / Math.PI;
      if (angle > 90) angle -= 180;
      if (angle < -90) angle += 180;
      const r = cv.boundingRect(c);
      const box = {
        x: (r.x + mx) / scale,
        y: (r.y + my) / scale,
        w: r.width / scale,
        h: r.height / scale,
      };
      if (Math.abs(angle) <= 20) out.push({ angle, length: long, box });
    }
    return out;
  });
}

/**
 * The angle (degrees, clockwise positive in image coordinates) of the text lines of a landscape
 * card image: the median angle of its line blobs; 0 when fewer than three are seen.
 */
export function textSkew(cv: Cv, grey: Mat): number {
  const angles = lineBlobs(cv, grey, 17)
    .map((b) => b.angle)
    .sort((x, y) => x - y);
  return angles.length < 3 ? 0 : angles[Math.floor(angles.length / 2)]!;
}

/**
 * Text lines (150 px or longer at 1000 px wide): a cédula's back has its printed fields and three
 * MRZ lines; random pixels, a blurred picture or a face has next to none.
 */
const textLines = (cv: Cv, grey: Mat): number =>
  lineBlobs(cv, grey, 17).filter((b) => b.length >= 150).length;

/**
 * The region of an image that its text lines span, widened to hold a whole card (the front's photo
 * may stand left or right of its fields: issue 28); null when the text covers most of the image
 * already or is too little.
 */
function textCrop(
  blobs: LineBlob[],
  width: number,
  height: number,
): { x: number; y: number; w: number; h: number } | null {
  if (blobs.length < 3) return null;
  const x0 = Math.min(...blobs.map((b) => b.box.x));
  const y0 = Math.min(...blobs.map((b) => b.box.y));
  const x1 = Math.max(...blobs.map((b) => b.box.x + b.box.w));
  const y1 = Math.max(...blobs.map((b) => b.box.y + b.box.h));
  const w = x1 - x0;
  const h = y1 - y0;
  const cx0 = Math.max(0, Math.floor(x0 - 0.45 * w));
  const cx1 = Math.min(width, Math.ceil(x1 + 0.45 * w));
  // At least a card's height for that width: a strip of a card squeezes the face detector's view
  // of the portrait (its input is square) until it sees no face.
  const grow = Math.max(0.25 * h, ((cx1 - cx0) / CARD_ASPECT - h) / 2);
  const cy0 = Math.max(0, Math.floor(y0 - grow));
  const cy1 = Math.min(height, Math.ceil(y1 + grow));
  if ((cx1 - cx0) * (cy1 - cy0) > 0.7 * width * height || cx1 - cx0 < 200) return null;
  return { x: cx0, y: cy0, w: cx1 - cx0, h: cy1 - cy0 };
}

function quality(cv: Cv, grey: Mat, fraction: number): CardQuality {
  return withMats((keep) => {
    const small = keep(new cv.Mat());
    const scale = 1000 / grey.cols;
    cv.resize(grey, small, new cv.Size(1000, Math.round(grey.rows * scale)), 0, 0, cv.INTER_AREA);
    const lap = keep(new cv.Mat());
    cv.Laplacian(small, lap, cv.CV_64F);
    const mean = keep(new cv.Mat());
    const std = keep(new cv.Mat());
    cv.meanStdDev(lap, mean, std);
    const burnt = keep(new cv.Mat());
    cv.threshold(small, burnt, 249, 255, cv.THRESH_BINARY);
    const brightness = Math.round(cv.mean(small)[0] as number);
    const burntShare = cv.countNonZero(burnt) / (small.rows * small.cols);
    return {
      brightness,
      // Burnt spots on a card that is not burnt all over (that is 'too bright', not glare).
      glare: Math.round((medianOf(small.data as Uint8Array) < 235 ? burntShare : 0) * 1000) / 1000,
      sharpness: Math.round((std.doubleAt(0, 0) as number) ** 2),
      fraction,
    };
  });
}

const matOf = (cv: Cv, img: RgbImage): Mat => {
  const m = new cv.Mat(img.height, img.width, cv.CV_8UC3);
  m.data.set(img.data);
  return m;
};

const rgbOf = (m: Mat): RgbImage => ({
  data: Buffer.from(m.data as Uint8Array),
  width: m.cols,
  height: m.rows,
});

/**
 * The card found in a photo, warped to a landscape card and deskewed by its text lines. An outline
 * whose warp shows fewer than half the text lines of the photo as it is was not the card (a block
 * of the print of a photo cropped to the card: the portrait with the fields beside it, 12% of the
 * photo, no face seen in its warp): the photo is then read as having no outline.
 */
export function straightenCard(cv: Cv, photo: RgbImage): StraightenedCard {
  return withMats((keep) => {
    const src = keep(matOf(cv, photo));
    const scale = Math.min(1, DETECT_SIDE / Math.max(photo.width, photo.height));
    const small = keep(new cv.Mat());
    cv.resize(
      src,
      small,
      new cv.Size(Math.round(photo.width * scale), Math.round(photo.height * scale)),
      0,
      0,
      cv.INTER_AREA,
    );
    const found = findCardQuad(cv, small);
    const warped = straightenTo(cv, photo, src, found, scale);
    if (!found) return warped;
    const grey = keep(new cv.Mat());
    cv.cvtColor(src, grey, cv.COLOR_RGB2GRAY);
    return warped.textLines * 2 < textLines(cv, grey)
      ? straightenTo(cv, photo, src, null, scale)
      : warped;
  });
}

/** The photo warped to the outline `found` (at `scale`), or with no outline cropped to its text. */
function straightenTo(
  cv: Cv,
  photo: RgbImage,
  src: Mat,
  found: Quad | null,
  scale: number,
): StraightenedCard {
  return withMats((keep) => {
    let card: Mat = src;
    let fraction = 1;
    if (found) {
      const q = found.map((p) => ({ x: p.x / scale, y: p.y / scale })) as Quad;
      fraction = quadArea(q) / (photo.width * photo.height);
      const measured = (dist(q[0], q[1]) + dist(q[3], q[2])) / 2;
      const tall = (dist(q[0], q[3]) + dist(q[1], q[2])) / 2;
      // The outline's own proportions: a card whose dark header merged with a dark table is found
      // without it, and is not stretched to a whole card's shape.
      const aspect = Math.min(2.1, Math.max(1.3, measured / tall));
      const w = Math.round(Math.min(MAX_CARD_WIDTH, Math.max(MIN_CARD_WIDTH, measured)));
      const h = Math.round(w / aspect);
      const from = keep(
        cv.matFromArray(
          4,
          1,
          cv.CV_32FC2,
          q.flatMap((p) => [p.x, p.y]),
        ),
      );
      const to = keep(cv.matFromArray(4, 1, cv.CV_32FC2, [0, 0, w, 0, w, h, 0, h]));
      const m = keep(cv.getPerspectiveTransform(from, to));
      card = keep(new cv.Mat());
      cv.warpPerspective(src, card, m, new cv.Size(w, h), cv.INTER_CUBIC, cv.BORDER_REPLICATE);
    }
    const cardGrey = keep(new cv.Mat());
    let cardGreyCropped: Mat | null = null;
    cv.cvtColor(card, cardGrey, cv.COLOR_RGB2GRAY);
    const skew = textSkew(cv, cardGrey);
    let out: Mat = card;
    if (Math.abs(skew) >= 0.4) {
      const center = new cv.Point(card.cols / 2, card.rows / 2);
      const r = keep(cv.getRotationMatrix2D(center, skew, 1));
      out = keep(new cv.Mat());
      cv.warpAffine(
        card,
        out,
        r,
        new cv.Size(card.cols, card.rows),
        cv.INTER_CUBIC,
        cv.BORDER_REPLICATE,
      );
      cv.cvtColor(out, cardGrey, cv.COLOR_RGB2GRAY);
    }
    if (!found) {
      // No outline (a light card on a light table, a photo cropped to the card): the card is where
      // its text is. Cropping to it (with room for the front's photo on the left) gives the OCR the
      // card at the size its passes expect.
      const crop = textCrop(lineBlobs(cv, cardGrey, 17), out.cols, out.rows);
      if (crop) {
        const roi = keep(out.roi(new cv.Rect(crop.x, crop.y, crop.w, crop.h)));
        out = keep(new cv.Mat());
        // copyTo, not clone: opencv.js's clone of a region keeps the parent's row stride.
        roi.copyTo(out);
        fraction = (crop.w * crop.h) / (photo.width * photo.height);
        cardGreyCropped = keep(new cv.Mat());
        cv.cvtColor(out, cardGreyCropped, cv.COLOR_RGB2GRAY);
      }
    }
    const finalGrey = cardGreyCropped ?? cardGrey;
    return {
      image: out === src ? photo : rgbOf(out),
      found: Boolean(found),
      skew: Math.round(skew * 10) / 10,
      textLines: textLines(cv, finalGrey),
      quality: quality(cv, finalGrey, Math.round(fraction * 100) / 100),
    };
  });
}
