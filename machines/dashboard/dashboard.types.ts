export type DashboardFeature = 'autoconsulta' | 'historial' | 'sos';

export type DashboardContext = { feature: DashboardFeature | null };

export type DashboardEvent =
  | { type: 'menu.toggle' }
  | { type: 'menu.close' }
  | { type: 'feature.select'; feature: DashboardFeature }
  | { type: 'notice.dismiss' };
