/** Spanish texts of the back office's accounts, passkeys and sessions (voseo, as in the app). */
export const operatorMessages = {
  enrolLinkInvalid:
    'El enlace de alta no es válido, ya se usó o venció. Pedile uno nuevo a la persona a cargo.',
  enrolChallengeExpired:
    'Pasó demasiado tiempo. Volvé a abrir el enlace de alta e intentá de nuevo.',
  enrolFailed: 'No pudimos registrar tu llave de acceso. Intentá de nuevo.',
  passkeyTaken: 'Esa llave de acceso ya está registrada.',
  loginChallengeInvalid: 'El intento de ingreso venció. Intentá de nuevo.',
  loginFailed: 'No pudimos verificar tu llave de acceso. Intentá de nuevo.',
  notConfigured: 'El acceso de operadores no está disponible en este momento.',
  hostIsIp:
    'Las llaves de acceso no funcionan en una dirección IP. Abrí el enlace con localhost o con el nombre del sitio en lugar de la dirección IP.',
  sessionRequired: 'Tu sesión terminó. Ingresá de nuevo con tu llave de acceso.',
  roleForbidden: 'Tu rol no permite esta acción.',
  crossSite: 'Solicitud rechazada: no viene de esta aplicación.',
  loggedOut: 'Sesión cerrada.',
} as const;
