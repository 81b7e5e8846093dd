import type { CentresResponse, HealthCentre } from '../../contract/cases';

/**
 * Paraguay's 17 departments and its capital, in the official order (INE codes, as
 * server/geo/paraguay-districts.json lists them; a test keeps the two alike), written as patients
 * read them, with each department's capital city where it is: enough to tell a patient whose
 * department has no health centre which listed centres are nearest (issue 43 item 10).
 */
type Department = {
  code: string;
  name: string;
  /** other names a centres file may use for it */
  aliases?: readonly string[];
  /** the department's capital city, degrees */
  lat: number;
  lon: number;
};

export const PARAGUAY_DEPARTMENTS: readonly Department[] = [
  {
    code: '00',
    name: 'Asunción',
    aliases: ['Capital', 'Distrito Capital'],
    lat: -25.2637,
    lon: -57.5759,
  },
  { code: '01', name: 'Concepción', lat: -23.4064, lon: -57.4344 },
  { code: '02', name: 'San Pedro', lat: -24.0917, lon: -57.0833 },
  { code: '03', name: 'Cordillera', lat: -25.3861, lon: -57.1406 },
  { code: '04', name: 'Guairá', lat: -25.75, lon: -56.4333 },
  { code: '05', name: 'Caaguazú', lat: -25.4444, lon: -56.4403 },
  { code: '06', name: 'Caazapá', lat: -26.1953, lon: -56.3681 },
  { code: '07', name: 'Itapúa', lat: -27.3333, lon: -55.8667 },
  { code: '08', name: 'Misiones', lat: -26.6694, lon: -57.1458 },
  { code: '09', name: 'Paraguarí', lat: -25.6236, lon: -57.1483 },
  { code: '10', name: 'Alto Paraná', lat: -25.5097, lon: -54.6111 },
  { code: '11', name: 'Central', lat: -25.3125, lon: -57.3847 },
  { code: '12', name: 'Ñeembucú', lat: -26.8569, lon: -58.3 },
  { code: '13', name: 'Amambay', lat: -22.5472, lon: -55.7333 },
  { code: '14', name: 'Canindeyú', lat: -24.0625, lon: -54.3069 },
  { code: '15', name: 'Presidente Hayes', lat: -25.0939, lon: -57.5236 },
  { code: '16', name: 'Boquerón', lat: -22.3539, lon: -60.0322 },
  { code: '17', name: 'Alto Paraguay', lat: -21.0414, lon: -57.8738 },
];

/** A department's name compared without case, accents or extra spaces ('ALTO PARANÁ' = 'Alto Paraná'). */
export const departmentKey = (name: string): string =>
  name
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();

const known = (name: string): Department | undefined => {
  const key = departmentKey(name);
  return PARAGUAY_DEPARTMENTS.find(
    (d) => departmentKey(d.name) === key || d.aliases?.some((a) => departmentKey(a) === key),
  );
};

/** Straight-line distance between two capitals, in degrees of latitude (enough to rank them). */
const distance = (a: Department, b: Department): number => {
  const cos = Math.cos((((a.lat + b.lat) / 2) * Math.PI) / 180);
  return Math.hypot(a.lat - b.lat, (a.lon - b.lon) * cos);
};

/** A centre with the department it is in, as the nearest ones are shown. */
export type NearbyCentre = HealthCentre & { departamento: string };

/**
 * The centres' choice for a patient: every department (the country's, then any other name the
 * centres file uses), the chosen one's centres, and when it has none, the centres of the
 * `nearestDepartments` nearest departments that have some (empty before a choice).
 */
export function centresFor(
  centres: CentresResponse,
  chosen: string | null,
  nearestDepartments = 2,
): { departments: string[]; list: HealthCentre[]; nearest: NearbyCentre[] } {
  // The configured centres under the country's name of their department, or their own.
  const byName = new Map<string, HealthCentre[]>();
  for (const d of centres) {
    const name = known(d.departamento)?.name ?? d.departamento;
    byName.set(name, [...(byName.get(name) ?? []), ...d.centros]);
  }
  const departments = [
    ...PARAGUAY_DEPARTMENTS.map((d) => d.name),
    ...[...byName.keys()].filter((name) => !known(name)),
  ];
  const list = chosen ? (byName.get(chosen) ?? []) : [];
  const here = chosen ? known(chosen) : undefined;
  if (list.length > 0 || !here) return { departments, list, nearest: [] };
  const nearest = PARAGUAY_DEPARTMENTS.filter((d) => (byName.get(d.name)?.length ?? 0) > 0)
    .sort((a, b) => distance(here, a) - distance(here, b))
    .slice(0, nearestDepartments)
    .flatMap((d) => byName.get(d.name)!.map((c) => ({ ...c, departamento: d.name })));
  return { departments, list, nearest };
}
