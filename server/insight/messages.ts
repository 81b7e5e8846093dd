/** Spanish answers of POST /api/insight/events (voseo, as in the app). */
export const insightMessages = {
  badBatch: 'Los eventos enviados no son válidos.',
  badJson: 'El cuerpo de la solicitud no es un JSON válido.',
} as const;
