import { readFile } from 'node:fs/promises';
import type { Db } from '../db/client';

type DistrictsFile = {
  departments: { code: string; name: string; districts: { code: string; name: string }[] }[];
};

const dataFile = new URL('./paraguay-districts.json', import.meta.url);

/**
 * Loads the departments and their districts (cities) into the database. Idempotent and safe to
 * run from several processes at once: existing rows are left as they are.
 */
export async function seedGeo(db: Db): Promise<{ departments: number; cities: number }> {
  const data = JSON.parse(await readFile(dataFile, 'utf8')) as DistrictsFile;
  const cities = data.departments.flatMap((d) =>
    d.districts.map((c) => ({ ...c, department: d.code })),
  );
  const known = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM cities');
  if (known.rows[0]?.n === cities.length)
    return { departments: data.departments.length, cities: cities.length };
  await db.transaction(async (tx) => {
    await tx.query(
      `INSERT INTO departments (id, nombre)
       SELECT * FROM unnest($1::text[], $2::text[]) ON CONFLICT (id) DO NOTHING`,
      [data.departments.map((d) => d.code), data.departments.map((d) => d.name)],
    );
    await tx.query(
      `INSERT INTO cities (id, department_id, nombre)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[]) ON CONFLICT (id) DO NOTHING`,
      [cities.map((c) => c.code), cities.map((c) => c.department), cities.map((c) => c.name)],
    );
  });
  return { departments: data.departments.length, cities: cities.length };
}
