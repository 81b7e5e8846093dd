import type { RgbImage } from './image';
import {
  CARD_ASPECT,
  dist,
  lineBlobs,
  textCrop,
  textLines,
  textSkew,
  type Point,
} from './card-text';
import {
  findCardQuad,
  medianOf,
  orderQuad,
  plausibleCard,
  quadArea,
  type Quad,
} from './card-outline';
import { withMats, type Cv, type Mat } from './opencv';

/**
 * Finding a cédula in a phone photo and straightening it, with OpenCV (opencv.ts), before either side
 * is read. Runs in the card worker thread (worker/card-worker.ts), never on the event loop.
 *
 * 1. The card's outline: external contours of three binary maps of a 640 px copy (edges; the card
 *    lighter than its background; darker), each reduced to a quadrilateral (polygon or rotated box),
 *    kept when it covers 12-98% of the photo, has a card's proportions (ID-1, 85.6 x 54 mm, 1.586)
 *    within what a 15 degree tilt gives, and nearly right angles; the largest rectangular one wins
 *    (card-outline.ts).
 * 2. A perspective warp of that quadrilateral to a canonical landscape card.
 * 3. Deskew by the text lines (characters merged into line blobs, their median angle): the residual
 *    after the warp, or all of it when no outline was found (a photo cropped to the card).
 * 4. What a patient can fix, measured on the card: light, glare, sharpness, how much of the photo
 *    the card takes.
 * The text lines (steps 3, and the check of an outline's warp): card-text.ts.
 */

export { CARD_ASPECT, orderQuad, plausibleCard, textSkew, type Point };

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
const MAX_CARD_WIDTH = 1600;
const MIN_CARD_WIDTH = 1012;

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
