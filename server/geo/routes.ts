import type { FastifyInstance } from 'fastify';
import type { Place } from '../../contract/onboarding';
import type { AppContext } from '../context';
import type { Db } from '../db/client';
import { HttpError } from '../http/errors';
import { seedGeo } from './seed';

const geoMessages = {
  unknownDepartment: 'No encontramos ese departamento. Elegí uno de la lista.',
} as const;

const byName = (a: Place, b: Place) => a.nombre.localeCompare(b.nombre, 'es');

async function listDepartments(db: Db): Promise<Place[]> {
  const { rows } = await db.query<Place>('SELECT id, nombre FROM departments ORDER BY id');
  return rows;
}

/** The department's cities in alphabetical order, or null for an unknown department. */
async function listCities(db: Db, departmentId: string): Promise<Place[] | null> {
  const dep = await db.query('SELECT 1 FROM departments WHERE id = $1', [departmentId]);
  if (!dep.rows.length) return null;
  const { rows } = await db.query<Place>('SELECT id, nombre FROM cities WHERE department_id = $1', [
    departmentId,
  ]);
  return rows.sort(byName);
}

export async function cityBelongsTo(
  db: Db,
  cityId: string,
  departmentId: string,
): Promise<boolean> {
  const { rows } = await db.query('SELECT 1 FROM cities WHERE id = $1 AND department_id = $2', [
    cityId,
    departmentId,
  ]);
  return rows.length === 1;
}

/** GET /departments and GET /cities/:departmentId (ids are the official codes, as strings). */
export async function geoRoutes(app: FastifyInstance, opts: { ctx: AppContext }): Promise<void> {
  const { db } = opts.ctx;
  await seedGeo(db);
  app.get('/departments', async (): Promise<Place[]> => listDepartments(db));
  app.get<{ Params: { departmentId: string } }>(
    '/cities/:departmentId',
    async (request): Promise<Place[]> => {
      const cities = await listCities(db, request.params.departmentId.slice(0, 16));
      if (!cities) throw new HttpError(404, geoMessages.unknownDepartment);
      return cities;
    },
  );
}
