/** Spanish answers of POST /api/insight/events (voseo, as in the app). */
export const insightMessages = {
  badBatch: 'Los eventos enviados no son válidos.',
  badJson: 'El cuerpo de la solicitud no es un JSON válido.',
  badToken: 'La sesión de métricas venció. Recargá la página.',
  crossSite: 'Solicitud rechazada: no viene de este sitio.',
} as const;
