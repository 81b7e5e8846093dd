/**
 * A hint on a document photo before it is sent (issue 22): too dark, the card too small in the
 * frame, or no card in it at all (issue 29 item 14). Cheap and advisory: a 160 px greyscale copy, its light, and the region its strong
 * edges (the card's print and photo) span. The server judges the photo anyway; this only saves a
 * patient a slow round trip for a photo that will likely not read.
 */
export type PhotoHint = 'dark' | 'small' | 'noCard';
export type GreyImage = { data: ArrayLike<number>; width: number; height: number };

/**
 * The light of the photo's brightest 2% (a card's white or pale ground) under which its print is
 * too dark to read (0-255); a dark table around a well-lit card does not count.
 */
const DARK_BELOW = 120;
/** The share of the frame the card's print spans under which the card is too far. */
const SMALL_BELOW = 0.12;
/**
 * The share of very sharp edges (a gradient of 120 or more: a card's black print on its pale
 * ground) under which a photo that fills the frame shows no card (issue 29 item 14): a face, a
 * room, a blank table. Cards photographed close measure about 0.075, faces 0.004-0.033.
 */
const SHARP_EDGE = 120;
const NO_CARD_BELOW = 0.045;

export function photoHint(img: GreyImage): PhotoHint | null {
  const { data, width: w, height: h } = img;
  const hist = new Array<number>(256).fill(0);
  for (let i = 0; i < w * h; i++) hist[Math.round(data[i]!)]!++;
  let seen = 0;
  let p98 = 255;
  for (let v = 0; v < 256; v++)
    if ((seen += hist[v]!) >= 0.98 * w * h) {
      p98 = v;
      break;
    }
  if (p98 < DARK_BELOW) return 'dark';
  // Strong edges: a gradient among the 8% strongest and above a floor (texture stays below it).
  const grads: number[] = [];
  const at: Array<[number, number, number]> = [];
  for (let y = 1; y < h - 1; y++)
    for (let x = 1; x < w - 1; x++) {
      const i = y * w + x;
      const g = Math.abs(data[i + 1]! - data[i - 1]!) + Math.abs(data[i + w]! - data[i - w]!);
      grads.push(g);
      at.push([x, y, g]);
    }
  if (!grads.length) return null;
  const sharp = grads.filter((g) => g >= SHARP_EDGE).length / grads.length;
  const sorted = [...grads].sort((a, b) => a - b);
  const threshold = Math.max(60, sorted[Math.floor(sorted.length * 0.92)]!);
  const xs: number[] = [];
  const ys: number[] = [];
  for (const [x, y, g] of at)
    if (g >= threshold) {
      xs.push(x);
      ys.push(y);
    }
  // Nothing sharp at all (a blank wall, a covered lens): no card in it.
  if (xs.length < 20) return 'noCard';
  xs.sort((a, b) => a - b);
  ys.sort((a, b) => a - b);
  const q = (v: number[], p: number) => v[Math.floor(p * (v.length - 1))]!;
  const span = ((q(xs, 0.95) - q(xs, 0.05)) * (q(ys, 0.95) - q(ys, 0.05))) / (w * h);
  if (span < SMALL_BELOW) return 'small';
  return sharp < NO_CARD_BELOW ? 'noCard' : null;
}
