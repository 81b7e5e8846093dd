import styled from 'styled-components';
import { selectCase } from '../../../../../machines/operators/operators.selectors';
import type { EvidenceImage } from '../../../../../machines/operators/operators.types';
import { caseCopy, operadorTerms } from '../../../../copy/es.operators';
import { Muted } from '../../../../components/Page';
import { theme } from '../../../../theme/theme';
import { CaseActor } from '../../operators.context';
import { H2 } from '../parts';

const Pair = styled.div`
  display: grid;
  gap: 12px;
  grid-template-columns: 1fr 1fr;
`;
/** Both images of a pair at the same size: the same box, the picture fitted inside it. */
const Figure = styled.figure`
  margin: 0;
  display: flex;
  flex-direction: column;
  gap: 6px;
  img,
  div {
    width: 100%;
    aspect-ratio: 4 / 5;
    object-fit: contain;
    background: ${theme.colors.background};
    border: 1px solid ${theme.colors.border};
    border-radius: ${theme.radius}px;
  }
  div {
    display: flex;
    align-items: center;
    justify-content: center;
    color: ${theme.colors.muted};
  }
  figcaption {
    font-size: 0.9375rem;
    color: ${theme.colors.muted};
  }
`;
const CardFigure = styled(Figure)`
  img,
  div {
    aspect-ratio: 85.6 / 54;
  }
`;

/** One image of the case (an object URL), or a note that the case holds none. */
function Evidence({
  images,
  image,
  card = false,
}: {
  images: Partial<Record<EvidenceImage, string>>;
  image: EvidenceImage;
  card?: boolean;
}) {
  const Box = card ? CardFigure : Figure;
  const url = images[image];
  return (
    <Box>
      {url ? (
        <img src={url} alt={operadorTerms.images[image]} />
      ) : (
        <div>{caseCopy.missingImage}</div>
      )}
      <figcaption>{operadorTerms.images[image]}</figcaption>
    </Box>
  );
}

/** The evidence: the face beside the card's portrait, the card's two sides, the attempts. */
export function CaseEvidence() {
  const { detail: d, images } = CaseActor.useSelector(selectCase);
  if (!d) return null;
  return (
    <>
      <H2>{caseCopy.faces}</H2>
      <Pair>
        <Evidence images={images} image={d.kind === 'centro' ? 'desk' : 'selfie'} />
        <Evidence images={images} image="portrait" />
      </Pair>
      <H2>{caseCopy.documentSides}</H2>
      <Pair>
        <Evidence images={images} image="front" card />
        <Evidence images={images} image="back" card />
      </Pair>
      <Muted>{caseCopy.attempts(d.attempts.liveness, d.attempts.scans)}</Muted>
    </>
  );
}
