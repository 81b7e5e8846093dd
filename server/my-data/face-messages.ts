/** The Spanish answers of 'Mi rostro' (issue 45 item 4), in voseo. */
export const myFaceMessages = {
  locked: 'Bloqueaste el reconocimiento de tu rostro. Nadie puede ingresar con tu cara.',
  notLocked: 'El reconocimiento de tu rostro no está bloqueado.',
  noFace: 'No tenés un rostro registrado.',
  noCelular:
    'No tenés un celular registrado para recibir el código. Acercate a un centro de salud para desbloquear tu rostro.',
  codeSent: 'Te enviamos un código por SMS. Vence en 5 minutos.',
  smsFailed: 'No pudimos enviar el SMS. Intentá de nuevo en unos minutos.',
  badPin: 'Ingresá tu PIN de 6 dígitos.',
  badOtp: 'Ingresá el código de 6 dígitos que te enviamos por SMS.',
  wrongPin: 'El PIN no es correcto. Verificá e intentá de nuevo.',
  wrongOtp: 'Código incorrecto o vencido. Verificá el SMS o pedí un código nuevo.',
  unlocked: 'Desbloqueaste el reconocimiento de tu rostro.',
  withdrawn:
    'Borramos tu rostro. Ya no vas a poder ingresar con tu cara; seguís ingresando con tu cédula y tu PIN.',
} as const;
