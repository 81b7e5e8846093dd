/** The dashboard's buttons not built yet: each says 'Próximamente'. */
export type DashboardFeature = 'autoconsulta' | 'historial';

/** The dashboard's three big buttons: the features above and SOS. */
export type DashboardButton = DashboardFeature | 'sos';

/** The emergency lines SOS offers; their names are in src/copy/es.ts (dashboard.sos). */
export type EmergencyLine = 'seme' | 'police';

export type DashboardContext = { feature: DashboardFeature | null };

export type DashboardEvent =
  | { type: 'menu.toggle' }
  | { type: 'menu.close' }
  | { type: 'feature.select'; feature: DashboardFeature }
  | { type: 'notice.dismiss' }
  /** SOS: the emergency numbers, until closed */
  | { type: 'sos.open' }
  | { type: 'sos.close' };
