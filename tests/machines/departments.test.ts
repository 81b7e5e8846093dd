import { describe, expect, it } from 'vitest';
import geo from '../../server/geo/paraguay-districts.json';
import { centresFor, departmentKey, PARAGUAY_DEPARTMENTS } from '../../machines/shared/departments';

const centre = (nombre: string) => ({
  nombre,
  direccion: 'Centro',
  ciudad: nombre,
  horario: 'Lunes a viernes',
});

describe("Paraguay's departments for the health centres (issue 43 item 10)", () => {
  it("are the server's geography: the same codes and names, in its order", () => {
    expect(PARAGUAY_DEPARTMENTS.map((d) => [d.code, departmentKey(d.name)])).toEqual(
      geo.departments.map((d) => [d.code, departmentKey(d.name)]),
    );
  });

  it('each capital lies in Paraguay', () => {
    for (const d of PARAGUAY_DEPARTMENTS) {
      expect(d.lat, d.name).toBeGreaterThan(-28);
      expect(d.lat, d.name).toBeLessThan(-19);
      expect(d.lon, d.name).toBeGreaterThan(-63);
      expect(d.lon, d.name).toBeLessThan(-54);
    }
  });

  it("lists every department once, a file's own names under the country's, others after", () => {
    const view = centresFor(
      [
        { departamento: 'CAPITAL', centros: [centre('A')] },
        { departamento: 'alto parana', centros: [centre('B')] },
        { departamento: 'Chaco Central', centros: [centre('C')] },
      ],
      'Alto Paraná',
    );
    expect(view.departments).toHaveLength(19);
    expect(view.departments.at(-1)).toBe('Chaco Central');
    expect(view.list.map((c) => c.nombre)).toEqual(['B']);
    expect(view.nearest).toEqual([]);
    expect(
      centresFor([{ departamento: 'Capital', centros: [centre('A')] }], 'Asunción').list,
    ).toEqual([centre('A')]);
  });

  it('a department without a centre: the centres of the two nearest that have one', () => {
    const centres = [
      { departamento: 'Asunción', centros: [centre('A')] },
      { departamento: 'Itapúa', centros: [centre('I1'), centre('I2')] },
      { departamento: 'Alto Paraná', centros: [centre('P')] },
      { departamento: 'Concepción', centros: [centre('C')] },
    ];
    const near = (d: string) => centresFor(centres, d).nearest.map((c) => c.nombre);
    expect(near('Misiones')).toEqual(['I1', 'I2', 'A']);
    expect(near('Canindeyú')).toEqual(['P', 'C']);
    expect(near('Cordillera')).toEqual(['A', 'C']);
    expect(centresFor(centres, 'Misiones').nearest[0]!.departamento).toBe('Itapúa');
    // Nothing chosen, or a department that has some: none.
    expect(centresFor(centres, null).nearest).toEqual([]);
    expect(centresFor(centres, 'Itapúa').nearest).toEqual([]);
  });
});
