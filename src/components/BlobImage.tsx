import { useEffect, useRef } from 'react';
import styled from 'styled-components';
import { theme } from '../theme/theme';

const Img = styled.img`
  display: block;
  width: 100%;
  height: auto;
  min-height: 120px;
  border-radius: ${theme.radius}px;
  border: 1px solid ${theme.colors.border};
`;

/** Shows an image held in memory (a captured photo); the object URL is freed when it goes. */
export function BlobImage({ blob, alt }: { blob: Blob; alt: string }) {
  const ref = useRef<HTMLImageElement>(null);
  useEffect(() => {
    const img = ref.current;
    if (!img || typeof URL.createObjectURL !== 'function') return;
    const url = URL.createObjectURL(blob);
    img.src = url;
    return () => URL.revokeObjectURL(url);
  }, [blob]);
  return <Img ref={ref} alt={alt} />;
}
