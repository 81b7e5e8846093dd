import { withMats, type Cv, type Mat } from './opencv';

/**
 * A card image's text lines (card-geometry.ts deskews by them, checks an outline's warp by how many
 * it keeps, and crops a photo of a card to them): characters merged into line blobs with OpenCV.
 */

export type Point = { x: number; y: number };

/** An ID-1 card's proportions (85.6 x 54 mm). */
export const CARD_ASPECT = 85.6 / 54;

export const dist = (a: Point, b: Point) => Math.hypot(a.x - b.x, a.y - b.y);

/** A text line: its angle, length (at 1000 px wide) and box (in the given image's pixels). */
export type LineBlob = {
  angle: number;
  length: number;
  box: { x: number; y: number; w: number; h: number };
};

/**
 * The text lines of a landscape card image, at 1000 px wide: characters merged into line blobs by
 * a horizontal closing over `join` px gaps, kept when long and thin (not a photo, not the
 * guilloche's hairlines).
 */
export function lineBlobs(cv: Cv, grey: Mat, join: number): LineBlob[] {
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
export const textLines = (cv: Cv, grey: Mat): number =>
  lineBlobs(cv, grey, 17).filter((b) => b.length >= 150).length;

/**
 * The region of an image that its text lines span, widened to hold a whole card (the front's photo
 * may stand left or right of its fields: issue 28); null when the text covers most of the image
 * already or is too little.
 */
export function textCrop(
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
