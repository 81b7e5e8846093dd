import { useEffect, useRef } from 'react';
import styled from 'styled-components';
import { theme } from '../../theme/theme';

const Frame = styled.div`
  width: 100%;
  max-width: 320px;
  aspect-ratio: 1 / 1;
  margin: 0 auto;
  overflow: hidden;
  background: #2b3a36;
  border-radius: ${theme.radius}px;
  border: 3px solid ${theme.colors.primary};
`;

const Video = styled.video<{ $mirrored: boolean }>`
  width: 100%;
  height: 100%;
  object-fit: cover;
  display: block;
  transform: ${({ $mirrored }) => ($mirrored ? 'scaleX(-1)' : 'none')};
`;

/** The camera preview, square as the frames sent (the machine opens and closes the camera). */
export function FacePreview({
  stream,
  label,
  mirrored,
}: {
  stream: MediaStream | null;
  label: string;
  mirrored: boolean;
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
    <Frame>
      <Video ref={ref} aria-label={label} autoPlay muted playsInline $mirrored={mirrored} />
    </Frame>
  );
}
