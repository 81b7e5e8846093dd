import { useState } from 'react';
import { KIOSK_ACTIVATION_FRAGMENT } from '../../../contract/face-auth';
import type { FaceAuthInput } from '../../../machines/faceAuth/faceAuth.types';
import { inspect } from '../../app/inspector';
import { FaceAuthActor } from './faceLogin.context';
import { FaceLoginScreen } from './FaceLoginScreen';

/**
 * The page's input, read once from the address: `?modo=kiosco` boots a kiosk; an activation link's
 * `#activar=TOKEN` (a fragment, so it never reaches a server log) is taken and removed from the
 * address bar at once.
 */
export function faceLoginInput(location: Pick<Location, 'search' | 'hash'>): FaceAuthInput {
  const mode = new URLSearchParams(location.search).get('modo') === 'kiosco' ? 'kiosk' : 'manual';
  const token = new URLSearchParams(location.hash.replace(/^#/, '')).get(KIOSK_ACTIVATION_FRAGMENT);
  const prefix = import.meta.env.VITE_FACE_AUTH_PREFIX as string | undefined;
  return { mode, activationToken: token || null, ...(prefix ? { prefix } : {}) };
}

function readInput(): FaceAuthInput {
  const input = faceLoginInput(window.location);
  if (input.activationToken)
    window.history.replaceState(
      window.history.state,
      '',
      window.location.pathname + window.location.search,
    );
  return input;
}

export default function FaceLoginFlow() {
  const [input] = useState(readInput);
  return (
    <FaceAuthActor.Provider options={{ input, inspect }}>
      <FaceLoginScreen />
    </FaceAuthActor.Provider>
  );
}
