import { useEffect, useRef } from 'react';
import styled from 'styled-components';
import { theme } from '../theme/theme';

/** A still picture shown while there is no camera picture (stories, opening, errors). */
const POSTER =
  'data:image/svg+xml;charset=utf-8,' +
  encodeURIComponent(
    '<svg xmlns="http://www.w3.org/2000/svg" width="320" height="360" viewBox="0 0 320 360"><rect width="320" height="360" fill="#2b3a36"/><circle cx="160" cy="140" r="62" fill="#55706a"/><path d="M52 360c8-78 52-120 108-120s100 42 108 120z" fill="#55706a"/></svg>',
  );

const Frame = styled.div<{ $shape: 'oval' | 'rect'; $width: number; $height: number }>`
  position: relative;
  width: 100%;
  max-width: ${({ $width }) => $width}px;
  aspect-ratio: ${({ $width, $height }) => `${$width} / ${$height}`};
  margin: 0 auto;
  overflow: hidden;
  background: #2b3a36;
  border-radius: ${({ $shape }) => ($shape === 'oval' ? '50%' : `${theme.radius}px`)};
  border: 3px solid ${theme.colors.primary};
`;

const Video = styled.video<{ $mirrored: boolean }>`
  width: 100%;
  height: 100%;
  object-fit: cover;
  display: block;
  transform: ${({ $mirrored }) => ($mirrored ? 'scaleX(-1)' : 'none')};
`;

/**
 * Renders a camera stream (the camera actor opens and closes it; this only shows it). `onPlaying`
 * tells the machine the picture is there (document 'Capturar' waits for it). Without a stream it
 * shows a still poster.
 */
export function CameraView({
  stream,
  label,
  shape = 'rect',
  mirrored = false,
  width = 320,
  height = 360,
  onPlaying,
}: {
  stream: MediaStream | null;
  label: string;
  shape?: 'oval' | 'rect';
  mirrored?: boolean;
  width?: number;
  height?: number;
  onPlaying?: () => void;
}) {
  const ref = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    const video = ref.current;
    if (!video || !stream) return;
    video.srcObject = stream;
    void video.play()?.catch(() => {});
    return () => {
      video.srcObject = null;
    };
  }, [stream]);
  return (
    <Frame $shape={shape} $width={width} $height={height}>
      <Video
        ref={ref}
        aria-label={label}
        poster={POSTER}
        autoPlay
        muted
        playsInline
        $mirrored={mirrored}
        onPlaying={onPlaying}
      />
    </Frame>
  );
}
