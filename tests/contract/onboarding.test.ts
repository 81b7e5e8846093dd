import { describe, expect, it } from 'vitest';
import {
  BANNED_PINS,
  isAcceptablePin,
  kycDataFromIdData,
  onboardingPaths,
  registerRequest,
  splitFullName,
  startRequest,
  validateOtpRequest,
} from '../../contract/onboarding';

describe('splitFullName (spec section 3)', () => {
  it('fewer than 3 words: the first word is the surname, the rest given names', () => {
    expect(splitFullName('GONZÁLEZ MARÍA')).toEqual({ apellido: 'GONZÁLEZ', nombre: 'MARÍA' });
    expect(splitFullName('  BENÍTEZ  ')).toEqual({ apellido: 'BENÍTEZ', nombre: '' });
  });
  it('3 or more words: the first two are surnames, the remainder given names', () => {
    expect(splitFullName('GONZÁLEZ BENÍTEZ MARÍA')).toEqual({
      apellido: 'GONZÁLEZ BENÍTEZ',
      nombre: 'MARÍA',
    });
    expect(splitFullName('GONZÁLEZ  BENÍTEZ MARÍA JOSÉ')).toEqual({
      apellido: 'GONZÁLEZ BENÍTEZ',
      nombre: 'MARÍA JOSÉ',
    });
  });
  it('maps id_data to kycData', () => {
    expect(
      kycDataFromIdData({
        FullName: 'ROJAS ACOSTA JUAN CARLOS',
        DocumentNumber: '4567890',
        DateOfBirth: '1990-05-17',
        Gender: 'M',
        Nationality: 'PRY',
        MaritalStatus: 'SOLTERO',
      }),
    ).toEqual({
      apellido: 'ROJAS ACOSTA',
      nombre: 'JUAN CARLOS',
      numeroDocumento: '4567890',
      fechaNacimiento: '1990-05-17',
      sexo: 'M',
      nacionalidad: 'PRY',
      estado_civil: 'SOLTERO',
    });
  });
});

describe('request schemas', () => {
  it('start accepts a Paraguayan mobile in any writing and an optional e-mail', () => {
    expect(startRequest.safeParse({ phone: '+595 981 123456' }).success).toBe(true);
    expect(startRequest.safeParse({ phone: '0981123456', email: '' }).success).toBe(true);
    expect(startRequest.safeParse({ phone: '0981123456', email: 'ana@example.com' }).success).toBe(
      true,
    );
    expect(startRequest.safeParse({ phone: '021123456' }).success).toBe(false);
    expect(startRequest.safeParse({ phone: '0981123456', email: 'ana@' }).success).toBe(false);
    expect(startRequest.safeParse({ phone: 981123456 }).success).toBe(false);
  });
  it('validate-otp needs exactly 6 digits', () => {
    expect(validateOtpRequest.safeParse({ celular: '0981123456', otp: '012345' }).success).toBe(
      true,
    );
    expect(validateOtpRequest.safeParse({ celular: '0981123456', otp: '12345' }).success).toBe(
      false,
    );
    expect(validateOtpRequest.safeParse({ celular: '0981123456', otp: '12345a' }).success).toBe(
      false,
    );
  });
  it('the 8 banned PINs and non-6-digit PINs are refused', () => {
    expect(BANNED_PINS).toHaveLength(8);
    for (const pin of BANNED_PINS) expect(isAcceptablePin(pin)).toBe(false);
    expect(isAcceptablePin('482915')).toBe(true);
    expect(isAcceptablePin('48291')).toBe(false);
    expect(isAcceptablePin('4829150')).toBe(false);
  });
  it('register defaults the optional supplementary fields', () => {
    const r = registerRequest.safeParse({
      registrationToken: 'T'.repeat(43),
      phone: '0981123456',
      pin: '482915',
      sessionId: 's1',
      supplementaryData: { departamento: '11', ciudad_id: '1101' },
      kycResult: { anything: true },
    });
    expect(r.success && r.data.supplementaryData).toEqual({
      departamento: '11',
      ciudad_id: '1101',
      tipoSangre: 'No sé',
      direccion: '',
    });
  });
  it('paths', () => {
    expect(onboardingPaths.cities('11')).toBe('/api/onboarding/cities/11');
  });
});
