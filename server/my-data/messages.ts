/** The Spanish answers of 'Mis datos' (issue 45). */
export const myDataMessages = {
  noSession: 'Tu sesión terminó. Ingresá de nuevo para ver tus datos.',
} as const;
