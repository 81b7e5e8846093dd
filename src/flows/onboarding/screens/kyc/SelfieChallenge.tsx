import styled, { keyframes } from 'styled-components';
import {
  LIVENESS_CUE_ATTR,
  LIVENESS_FRAMING_ATTR,
  LIVENESS_LIGHT_ATTR,
} from '../../../../../machines/kyc/kyc.challenge';

/**
 * The selfie challenge's pieces (issue 31). The machine says what shows and when; these only draw
 * it: the colour filling the screen around the oval, 'Parpadeá ahora' over the oval, and the
 * neutral panels that keep every text readable while a colour shows.
 */

/**
 * The colour around the oval: the whole screen behind the selfie's panels and the oval (fixed, under
 * them), carrying `data-liveness-light` for the e2e synthetic camera. Absent when none shows.
 */
const Light = styled.div`
  position: fixed;
  inset: 0;
  z-index: 0;
  pointer-events: none;
`;

export function ChallengeLight({ colour }: { colour: string | null }) {
  if (!colour) return null;
  return (
    <Light
      aria-hidden="true"
      style={{ backgroundColor: colour }}
      {...{ [LIVENESS_LIGHT_ATTR]: colour }}
    />
  );
}

/** The oval and the cue over it, above the colour. */
export const Stage = styled.div`
  position: relative;
  z-index: 1;
  width: 100%;
  max-width: 320px;
  margin: 0 auto;
`;

const openPhase = keyframes`
  0%, 45% { opacity: 1; }
  55%, 90% { opacity: 0; }
  100% { opacity: 1; }
`;
const closedPhase = keyframes`
  0%, 45% { opacity: 0; }
  55%, 90% { opacity: 1; }
  100% { opacity: 0; }
`;

/**
 * The eye: open, then closed, once every 1.2 s. With reduced motion (the global style stops every
 * animation) it stays drawn closed (the lid and its lashes), so the cue never relies on motion,
 * colour or sound alone.
 */
const Eye = styled.svg`
  flex: none;
  width: 36px;
  height: 36px;
  & .open {
    opacity: 0;
    animation: ${openPhase} 1.2s linear infinite;
  }
  & .closed {
    opacity: 1;
    animation: ${closedPhase} 1.2s linear infinite;
  }
`;

const CueRegion = styled.div`
  position: absolute;
  left: 0;
  right: 0;
  bottom: 10%;
  display: flex;
  justify-content: center;
  pointer-events: none;
`;

const CueBadge = styled.p`
  margin: 0;
  display: flex;
  align-items: center;
  gap: 8px;
  padding: 6px 16px 6px 12px;
  border: 3px solid #ffffff;
  border-radius: 999px;
  background: #000000;
  color: #ffffff;
  font-size: 1.375rem;
  font-weight: 700;
  line-height: 1.2;
  white-space: nowrap;
`;

/**
 * 'Parpadeá ahora' over the oval while the cue shows: large, white on black with a white border,
 * with the closing eye, announced at once (an assertive live region, always there, that the cue
 * appears in). Its element carries `data-liveness-cue` for the e2e synthetic camera.
 */
export function ChallengeCue({ shown, text }: { shown: boolean; text: string }) {
  return (
    <CueRegion aria-live="assertive" aria-atomic="true">
      {shown ? (
        <CueBadge {...{ [LIVENESS_CUE_ATTR]: '' }}>
          <Eye viewBox="0 0 48 48" aria-hidden="true" focusable="false">
            <g className="open">
              <path d="M4 24 C12 12 36 12 44 24 C36 36 12 36 4 24 Z" fill="#ffffff" />
              <circle cx="24" cy="24" r="7" fill="#000000" />
            </g>
            <g
              className="closed"
              fill="none"
              stroke="#ffffff"
              strokeWidth="3"
              strokeLinecap="round"
            >
              <path d="M5 20 Q24 38 43 20" />
              <path d="M12 28 L8 35 M24 31 L24 39 M36 28 L40 35" />
            </g>
          </Eye>
          {text}
        </CueBadge>
      ) : null}
    </CueRegion>
  );
}

const FramingRegion = styled.div`
  position: absolute;
  left: 0;
  right: 0;
  top: 6%;
  display: flex;
  justify-content: center;
  padding: 0 12px;
  pointer-events: none;
`;

const FramingBadge = styled.p`
  margin: 0;
  max-width: 100%;
  padding: 6px 14px;
  border: 2px solid #ffffff;
  border-radius: 12px;
  background: #000000;
  color: #ffffff;
  font-size: 1.125rem;
  font-weight: 700;
  line-height: 1.25;
  text-align: center;
`;

/**
 * What to change in the framing (issue 41), on the oval near its top, white on black: 'Acercá el
 * celular', 'Alejá un poco el celular'... as the machine says (it stands until an answer says
 * otherwise), announced politely (a live region, always there, that the hint appears in). Its
 * element carries `data-liveness-framing` (the codes) for the e2e synthetic patient, who follows it.
 */
export function ChallengeFraming({
  codes,
  text,
  label,
}: {
  codes: readonly string[];
  text: string;
  label: string;
}) {
  return (
    <FramingRegion role="status" aria-live="polite" aria-atomic="true" aria-label={label}>
      {codes.length ? (
        <FramingBadge {...{ [LIVENESS_FRAMING_ATTR]: codes.join(' ') }}>{text}</FramingBadge>
      ) : null}
    </FramingRegion>
  );
}
