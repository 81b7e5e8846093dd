import { fromPromise } from 'xstate';
import { CONTROL_CHARACTER } from '../../contract/common';
import { photoHint, type PhotoHint } from './photo-hint';

/**
 * Frames and photos in the browser: video -> canvas -> JPEG Blob (selfie, documents, kiosk) and
 * the scaling of document photos before upload (a phone photo is 4-8 MB). The geometry is pure and
 * tested on its own; the canvas is reached through `ImageEnv`, so tests can pass a fake one.
 */
export type Size = { width: number; height: number };
type Rect = { x: number; y: number; width: number; height: number };

export type CaptureOptions = {
  /** crop the centre of the frame to this aspect ratio (width / height), e.g. the oval's 320/360 */
  cropAspect?: number;
  /** flip horizontally (what a mirror shows) */
  mirror?: boolean;
  /** scale down so the width is at most this */
  maxWidth?: number;
  /** scale down so the longer side is at most this */
  maxSide?: number;
  /** JPEG quality, 0..1 */
  quality: number;
};

/** Documents: at most 2000 px on the long side, JPEG 0.92 (issue 7). */
export const DOCUMENT_IMAGE = { maxSide: 2000, quality: 0.92 } as const;

/** The largest centred rectangle of `aspect` inside a frame. */
export function centreCrop(frame: Size, aspect?: number): Rect {
  if (!aspect || aspect <= 0) return { x: 0, y: 0, ...frame };
  let width = frame.width;
  let height = Math.round(width / aspect);
  if (height > frame.height) {
    height = frame.height;
    width = Math.round(height * aspect);
  }
  return {
    x: Math.round((frame.width - width) / 2),
    y: Math.round((frame.height - height) / 2),
    width,
    height,
  };
}

/** `size` scaled down (never up) to fit `maxWidth` and `maxSide`, in whole pixels. */
export function fitWithin(size: Size, limits: { maxWidth?: number; maxSide?: number }): Size {
  let scale = 1;
  if (limits.maxWidth && size.width > limits.maxWidth)
    scale = Math.min(scale, limits.maxWidth / size.width);
  const long = Math.max(size.width, size.height);
  if (limits.maxSide && long > limits.maxSide) scale = Math.min(scale, limits.maxSide / long);
  return {
    width: Math.max(1, Math.round(size.width * scale)),
    height: Math.max(1, Math.round(size.height * scale)),
  };
}

type Canvas2D = Pick<CanvasRenderingContext2D, 'drawImage' | 'translate' | 'scale'>;
type DrawableCanvas = {
  getContext(kind: '2d'): Canvas2D | null;
  toBlob(type: string, quality: number): Promise<Blob>;
};

/** What the functions need from the browser; tests pass fakes. */
export type ImageEnv = {
  canvas: (size: Size) => DrawableCanvas;
  /** decodes an image file (EXIF orientation applied) */
  decode: (blob: Blob) => Promise<{ source: CanvasImageSource; size: Size; close(): void }>;
};

const browserImageEnv: ImageEnv = {
  canvas: ({ width, height }) => {
    const el = document.createElement('canvas');
    el.width = width;
    el.height = height;
    return {
      getContext: (kind) => el.getContext(kind),
      toBlob: (type, quality) =>
        new Promise<Blob>((resolve, reject) =>
          el.toBlob((b) => (b ? resolve(b) : reject(new Error('toBlob'))), type, quality),
        ),
    };
  },
  decode: async (blob) => {
    const bitmap = await createImageBitmap(blob, { imageOrientation: 'from-image' });
    return {
      source: bitmap,
      size: { width: bitmap.width, height: bitmap.height },
      close: () => bitmap.close(),
    };
  },
};

/** Draws `source` (its `size`) cropped, mirrored and scaled as asked, and encodes a JPEG. */
export async function encodeFrame(
  source: CanvasImageSource,
  size: Size,
  options: CaptureOptions,
  env: ImageEnv = browserImageEnv,
): Promise<Blob> {
  if (!size.width || !size.height) throw new Error('frame has no size yet');
  const crop = centreCrop(size, options.cropAspect);
  const out = fitWithin(crop, options);
  const canvas = env.canvas(out);
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('no 2d context');
  if (options.mirror) {
    ctx.translate(out.width, 0);
    ctx.scale(-1, 1);
  }
  ctx.drawImage(source, crop.x, crop.y, crop.width, crop.height, 0, 0, out.width, out.height);
  return canvas.toBlob('image/jpeg', options.quality);
}

/** One frame of a playing video element. */
export function captureFrame(
  video: HTMLVideoElement,
  options: CaptureOptions,
  env: ImageEnv = browserImageEnv,
): Promise<Blob> {
  return encodeFrame(video, { width: video.videoWidth, height: video.videoHeight }, options, env);
}

/** Any image file scaled to at most `maxSide` px on its long side, as JPEG (documents). */
export async function scaleImage(
  blob: Blob,
  options: { maxSide: number; quality: number } = DOCUMENT_IMAGE,
  env: ImageEnv = browserImageEnv,
): Promise<Blob> {
  const image = await env.decode(blob);
  try {
    return await encodeFrame(image.source, image.size, options, env);
  } finally {
    image.close();
  }
}

/**
 * A video element of its own, not in the page, playing `stream`: actors capture from it, so views
 * only render their own element. Resolves once the first frame is there.
 */
export async function videoOf(
  stream: MediaStream,
  signal?: AbortSignal,
): Promise<HTMLVideoElement> {
  const video = document.createElement('video');
  video.muted = true;
  video.playsInline = true;
  video.srcObject = stream;
  await new Promise<void>((resolve, reject) => {
    if (video.readyState >= 2) return resolve();
    video.addEventListener('loadeddata', () => resolve(), { once: true });
    video.addEventListener('error', () => reject(new Error('video')), { once: true });
    signal?.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
  });
  await video.play().catch(() => {});
  return video;
}

export const releaseVideo = (video: HTMLVideoElement | null): void => {
  if (!video) return;
  video.pause();
  video.srcObject = null;
};

export type FrameCaptureInput = { stream: MediaStream; options: CaptureOptions };

/** One frame from a camera stream as a JPEG Blob (document 'Capturar', the kiosk's frames). */
export const frameCaptureActor = fromPromise<Blob, FrameCaptureInput>(async ({ input, signal }) => {
  const video = await videoOf(input.stream, signal);
  try {
    return await captureFrame(video, input.options);
  } finally {
    releaseVideo(video);
  }
});

/** A chosen file scaled for upload (document 'Subir imagen'). */
export const imageScalingActor = fromPromise<Blob, { file: Blob }>(({ input }) =>
  scaleImage(input.file),
);

/** Frames being encoded at once: the capture keeps its pace while a slow phone encodes. */
export const MAX_ENCODING = 3;

/**
 * Captures a frame from `video` every `everyMs` and hands each to `onFrame` with its capture time,
 * in capture order. The frame is taken at the tick (drawn into its own canvas) and encoded after:
 * up to MAX_ENCODING encodes run at once, so a slow encode no longer skips the next ticks (a busy
 * phone or machine left 250-380 ms between frames, longer than a blink's closed phase); a tick is
 * skipped only while that many are under way. Returns the stop function.
 */
export function startSampling(
  video: HTMLVideoElement,
  everyMs: number,
  options: CaptureOptions,
  onFrame: (frame: { capturedAt: number; data: Blob }) => void,
  env: ImageEnv = browserImageEnv,
): () => void {
  let encoding = 0;
  let stopped = false;
  /** The frames delivered so far, in order: each waits for the one before it. */
  let delivered: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    if (encoding >= MAX_ENCODING || stopped || video.readyState < 2) return;
    encoding += 1;
    const capturedAt = performance.now();
    const encoded = captureFrame(video, options, env);
    delivered = delivered
      .then(() => encoded)
      .then((data) => {
        if (!stopped) onFrame({ capturedAt, data });
      })
      .catch(() => {})
      .finally(() => {
        encoding -= 1;
      });
  }, everyMs);
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}

/**
 * `startSampling` on a camera stream: plays it in a video element of its own (`videoOf`), then
 * captures as `startSampling` does. Returns the stop function, which also releases the video.
 */
export function sampleStream(
  stream: MediaStream,
  everyMs: number,
  options: CaptureOptions,
  onFrame: (frame: { capturedAt: number; data: Blob }) => void,
): () => void {
  const controller = new AbortController();
  let video: HTMLVideoElement | null = null;
  let stopSampling = () => {};
  videoOf(stream, controller.signal)
    .then((v) => {
      video = v;
      if (controller.signal.aborted) return releaseVideo(v);
      stopSampling = startSampling(v, everyMs, options, onFrame);
    })
    .catch(() => {});
  return () => {
    controller.abort();
    stopSampling();
    releaseVideo(video);
  };
}

/** The longest camera label the liveness request carries (contract/identity.ts livenessMeta). */
const CAMERA_LABEL_MAX = 200;

/**
 * The camera as the browser names it (issue 31's signals): its video track's label, without
 * control characters and at most 200 characters, and the frame rate it runs at, when known.
 */
export function cameraOf(stream: MediaStream): { label: string; frame_rate?: number } {
  const track = stream.getVideoTracks?.()[0];
  const label = (track?.label ?? '')
    .replace(new RegExp(CONTROL_CHARACTER.source, 'g'), ' ')
    .slice(0, CAMERA_LABEL_MAX);
  const rate = track?.getSettings?.().frameRate;
  return typeof rate === 'number' && Number.isFinite(rate) && rate >= 0 && rate <= 1000
    ? { label, frame_rate: rate }
    : { label };
}

/**
 * The document preview's hint (photo-hint.ts) of a photo Blob, decoded by the browser to a 160 px
 * greyscale copy. It lives here, beside the other actors the KYC machine's setup names, and not in
 * photo-hint.ts: that module landed in a chunk importing the machine's own chunk back, and an actor
 * read at the machine's setup from such a cycle is still undefined ('Actor type not found').
 */
export const photoHintActor = fromPromise<PhotoHint | null, { photo: Blob }>(async ({ input }) => {
  const bitmap = await createImageBitmap(input.photo);
  try {
    const width = 160;
    const height = Math.max(1, Math.round((bitmap.height * width) / bitmap.width));
    const canvas = document.createElement('canvas');
    canvas.width = width;
    canvas.height = height;
    const ctx = canvas.getContext('2d');
    if (!ctx) return null;
    ctx.drawImage(bitmap, 0, 0, width, height);
    const rgba = ctx.getImageData(0, 0, width, height).data;
    const grey = new Uint8Array(width * height);
    for (let i = 0; i < grey.length; i++)
      grey[i] = Math.round(
        0.299 * rgba[i * 4]! + 0.587 * rgba[i * 4 + 1]! + 0.114 * rgba[i * 4 + 2]!,
      );
    return photoHint({ data: grey, width, height });
  } finally {
    bitmap.close();
  }
});
