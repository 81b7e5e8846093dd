import styled, { keyframes } from 'styled-components';
import { LIVENESS_CUE_ATTR, LIVENESS_LIGHT_ATTR } from '../../../../../machines/kyc/kyc.challenge';

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

const blink = keyframes`
  0%, 35%, 100% { transform: scaleY(1); }
  50%, 65% { transform: scaleY(0.12); }
`;

/**
 * The closing eye: it blinks once a second; with reduced motion (the global style stops every
 * animation) it stays drawn closed, so the cue never relies on motion, colour or sound alone.
 */
const Eye = styled.svg`
  flex: none;
  width: 44px;
  height: 44px;
  & g {
    transform-origin: 24px 24px;
    transform: scaleY(0.12);
    animation: ${blink} 1s ease-in-out infinite;
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
  gap: 10px;
  padding: 8px 18px;
  border: 3px solid #ffffff;
  border-radius: 999px;
  background: #000000;
  color: #ffffff;
  font-size: 1.625rem;
  font-weight: 700;
  line-height: 1.2;
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
            <g>
              <path
                d="M4 24 C12 12 36 12 44 24 C36 36 12 36 4 24 Z"
                fill="#ffffff"
                stroke="#ffffff"
                strokeWidth="2"
              />
              <circle cx="24" cy="24" r="7" fill="#000000" />
            </g>
          </Eye>
          {text}
        </CueBadge>
      ) : null}
    </CueRegion>
  );
}
