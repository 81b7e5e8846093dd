/** Spanish texts of face authentication and kiosk devices (voseo, as in the app). */
export const faceLoginMessages = {
  recognised: 'Identidad verificada.',
  // spec 8: the default failure detail.
  notRecognised: 'No reconocido',
  /** What patients read at a kiosk never activated; the command goes to the log (routes.ts). */
  deviceNotActivated: 'Este equipo no está habilitado. Avisá al personal.',
  activationInvalid:
    'El enlace de activación no es válido, ya se usó o venció. Pedile uno nuevo a la persona a cargo.',
  activated: 'Dispositivo habilitado.',
  sessionInvalid: 'La sesión de reconocimiento no es válida. Iniciá una nueva.',
} as const;
