/** The session's paths, without zod (the login page's first load; ./session.ts has the schemas). */
export const sessionPaths = {
  logout: '/api/auth/logout',
  session: '/api/auth/session',
} as const;
