/** Spanish hints of the selfie step (voseo). The browser hides lines containing 'frame duplicado'. */
export const hints = {
  // A face too close to the camera is often not found at all (gates.ts): the whole face in the oval.
  noFace: 'No vemos tu cara: poné toda tu cara dentro del óvalo y mirá a la cámara.',
  severalFaces: 'Hay más de una cara en la imagen. Quedate solo/a frente a la cámara.',
  tooFar: 'Acercá el celular.',
  tooClose: 'Alejá un poco el celular.',
  tooDark: 'Hay poca luz. Buscá un lugar más iluminado.',
  notCentred: 'Centrá tu cara en el óvalo.',
  holdStill: 'Quedate quieto/a un momento.',
  openEyes: 'Mirá a la cámara con los ojos bien abiertos.',
  blink: (done: number, total: number) => `Parpadeá despacio (${done} de ${total}).`,
  duplicate: 'frame duplicado: la imagen se repite, no cuenta.',
  otherFace: 'La cara cambió. La misma persona tiene que completar la validación.',
  timeUp: 'Se terminó el tiempo. Volvé a iniciar la validación.',
  done: '¡Listo! Validación de vida completada.',
  // The challenge (issue 31): blinks on cue and the screen's light.
  waitCue: 'Esperá la señal y parpadeá.',
  cueCount: (done: number, total: number) => `Parpadeos: ${done} de ${total}.`,
  light: 'Mantené tu cara dentro del óvalo mientras la pantalla cambia de color.',
  lightAgain:
    'No vimos la luz de la pantalla en tu cara. Vamos a probar otra vez: acercá la cara a la pantalla.',
  // Issue 41: a round that could not be judged (no background to compare with and the face's own
  // change too small to read its shape: bright sun, a face far from the phone).
  lightUnjudged:
    'No llegamos a ver la luz de la pantalla en tu cara. Vamos a probar otra vez: acercá la cara al celular y, si estás al sol, buscá un lugar con menos luz.',
} as const;
