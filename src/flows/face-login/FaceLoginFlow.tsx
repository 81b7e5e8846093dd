import { useState } from 'react';
import { KIOSK_ACTIVATION_FRAGMENT } from '../../../machines/face-login/face-login.types';
import type { FaceLoginInput } from '../../../machines/face-login/face-login.types';
import { inspect } from '../../app/inspector';
import { FaceLoginActor } from './face-login.context';
import { FaceLoginScreen } from './FaceLoginScreen';

/**
 * The page's input, read once from the address: `?modo=kiosco` boots a kiosk; an activation link's
 * `#activar=TOKEN` (a fragment, so it never reaches a server log) is taken and removed from the
 * address bar at once.
 */
export function faceLoginInput(location: Pick<Location, 'search' | 'hash'>): FaceLoginInput {
  const mode = new URLSearchParams(location.search).get('modo') === 'kiosco' ? 'kiosk' : 'manual';
  const token = new URLSearchParams(location.hash.replace(/^#/, '')).get(KIOSK_ACTIVATION_FRAGMENT);
  const prefix = import.meta.env.VITE_FACE_AUTH_PREFIX as string | undefined;
  return { mode, activationToken: token || null, ...(prefix ? { prefix } : {}) };
}

function readInput(): FaceLoginInput {
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
    <FaceLoginActor.Provider options={{ input, inspect }}>
      <FaceLoginScreen />
    </FaceLoginActor.Provider>
  );
}
