/** The Spanish answers of 'Eliminar mi cuenta' (issue 45 item 6). */
export const deletionMessages = {
  noSession: 'Tu sesión terminó. Ingresá de nuevo para eliminar tu cuenta.',
  badPin: 'Ingresá tu PIN de 6 dígitos.',
  wrongPin: 'El PIN no es correcto. Revisalo e intentá de nuevo.',
  badCode: 'Ingresá el código de 6 dígitos que te enviamos por SMS.',
  wrongCode: 'Código incorrecto o vencido. Revisalo o pedí otro.',
  noCelular:
    'No tenemos un celular registrado para enviarte el código. Acercate a un centro de salud.',
  sendFailed: 'No pudimos enviar el SMS. Intentá de nuevo en unos minutos.',
  codeSent: 'Te enviamos un código por SMS a tu celular registrado. Vence en 5 minutos.',
  alreadyPending: 'Ya pediste eliminar tu cuenta. Podés cancelarlo hasta que se elimine.',
  nothingToCancel: 'No hay un pedido de eliminación pendiente.',
} as const;
