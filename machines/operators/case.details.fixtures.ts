import type { CaseDetail } from './operators.types';

/**
 * The cases an operator works, for stories and tests (no real person: the names are made up): the
 * data each case screen shows. case.fixtures.ts puts them in the machine's snapshots.
 */
export const LOADED_AT = Date.parse('2026-11-26T12:00:00.000Z');
export const minutesAgo = (m: number) => new Date(LOADED_AT - m * 60_000).toISOString();

export const fixtureCase: CaseDetail = {
  id: '7d1f5a2e-0c44-4b8e-9a51-3f2e6c1d9b70',
  kind: 'review',
  status: 'open',
  trigger: 'face_mismatch',
  step: 'selfie',
  openedAt: minutesAgo(190),
  fields: {
    FullName: 'MARÍA JOSÉ GONZÁLEZ BENÍTEZ',
    DocumentNumber: '1234567',
    DateOfBirth: '1990-05-14',
    Gender: 'F',
    Nationality: 'PRY',
    MaritalStatus: 'SOLTERA',
  },
  corrections: [
    {
      field: 'DateOfBirth',
      from: '1990-05-11',
      to: '1990-05-14',
      reason: 'La cédula dice 14 de mayo',
      operator: 'jrojas',
      at: minutesAgo(20),
    },
  ],
  engineReasons: ['face_mismatch', 'face_mismatch'],
  faceSimilarity: 0.46,
  faceThreshold: 0.6,
  attempts: { liveness: 1, scans: 2 },
  images: ['selfie', 'portrait', 'front', 'back'],
  approvals: [],
  needsSupervisor: false,
  claimedByMe: true,
  expiresAt: null,
  digest: '3f9a1c7e5b2d4086a1e3c5f7092b4d6e8f0a1b2c3d4e5f60718293a4b5c6d7e8',
  approvalRule: 'two',
  fieldOrigins: {
    FullName: 'read',
    DocumentNumber: 'read',
    DateOfBirth: 'typed',
    Gender: 'read',
    Nationality: 'read',
    MaritalStatus: 'read',
  },
};
/**
 * 'No puedo completar este paso' right after the selfie: no card; an operator typed the name and
 * the number. Not approved here (issue 42).
 */
export const cardMissingCase: CaseDetail = {
  ...fixtureCase,
  id: 'e4c2a8f1-9b3d-4a6e-b7c0-5f1d2e8a9c34',
  trigger: 'patient_choice',
  step: 'front',
  fields: {
    FullName: 'PÉREZ GÓMEZ JUAN CARLOS',
    DocumentNumber: '3456789',
    DateOfBirth: '',
    Gender: '',
    Nationality: '',
    MaritalStatus: '',
  },
  corrections: [
    {
      field: 'FullName',
      from: '',
      to: 'PÉREZ GÓMEZ JUAN CARLOS',
      reason: 'Lo dijo el paciente por teléfono',
      operator: 'mbenitez',
      at: minutesAgo(2),
    },
    {
      field: 'DocumentNumber',
      from: '',
      to: '3456789',
      reason: 'Lo dijo el paciente por teléfono',
      operator: 'mbenitez',
      at: minutesAgo(1),
    },
  ],
  engineReasons: [],
  faceSimilarity: null,
  faceThreshold: null,
  attempts: { liveness: 1, scans: 0 },
  images: ['selfie'],
  approvalRule: 'centre_only',
  fieldOrigins: {
    FullName: 'typed',
    DocumentNumber: 'typed',
    DateOfBirth: 'missing',
    Gender: 'missing',
    Nationality: 'missing',
    MaritalStatus: 'missing',
  },
};
/**
 * A remote review with the card read and no selfie (issue 43 item 2): no desk photo to take; not
 * approved here (ask for the selfie, or reject).
 */
export const selfieMissingCase: CaseDetail = {
  ...fixtureCase,
  id: 'b7d1e3f5-2a4c-4e6f-9b8d-1c3e5a7f9b2d',
  trigger: 'patient_choice',
  step: 'selfie',
  corrections: [],
  engineReasons: ['back_missing'],
  faceSimilarity: null,
  faceThreshold: null,
  images: ['portrait', 'front', 'back'],
  fieldOrigins: { ...fixtureCase.fieldOrigins, DateOfBirth: 'read' },
};
/**
 * A review the patient asked for from 'Verificá tus datos' (issue 43 item 7): the field they say was
 * read wrong and what it should say, shown as their claim (the fields stay as read).
 */
export const patientClaimCase: CaseDetail = {
  ...fixtureCase,
  id: 'c4e2a6f8-3b5d-4f7a-8c9e-2d4f6a8c0e1b',
  trigger: 'patient_choice',
  step: 'front',
  corrections: [],
  engineReasons: [],
  fieldOrigins: { ...fixtureCase.fieldOrigins, DateOfBirth: 'read' },
  patientClaim: { field: 'DateOfBirth', says: '14/04/1990' },
};
/**
 * 'Posible duplicado' (issue 44 item 3): the registration's selfie is the face of a patient already
 * registered with another cédula (made-up people); a supervisor approves (distinct people) or
 * rejects it, never a step repeated.
 */
export const duplicateCase: CaseDetail = {
  ...fixtureCase,
  id: 'b8d4f2a6-1c3e-4a5b-9d7f-6e8a0c2b4d19',
  kind: 'duplicate',
  trigger: 'possible_duplicate',
  fields: {
    FullName: 'ROJAS PÁEZ ANA LUCÍA',
    DocumentNumber: '5123478',
    DateOfBirth: '1992-08-03',
    Gender: 'F',
    Nationality: 'PRY',
    MaritalStatus: 'SOLTERA',
  },
  corrections: [],
  engineReasons: [],
  faceSimilarity: 0.84,
  faceThreshold: 0.66,
  approvalRule: 'one',
  fieldOrigins: { ...fixtureCase.fieldOrigins, DateOfBirth: 'read' },
  duplicate: {
    documento: '4567890',
    nombre: 'GONZÁLEZ BENÍTEZ MARÍA JOSÉ',
    registeredAt: '2026-03-14T15:20:00.000Z',
    similarity: 0.91,
    threshold: 0.7,
  },
};
export const centroCase: CaseDetail = {
  ...fixtureCase,
  id: 'a3f0c9d2-6e1b-4f7a-8d25-0b9c4e3f1a68',
  kind: 'centro',
  trigger: 'no_camera',
  engineReasons: [],
  faceSimilarity: null,
  faceThreshold: null,
  attempts: { liveness: 0, scans: 1 },
  images: ['portrait', 'front', 'back'],
  corrections: [],
  expiresAt: '2026-12-26T12:00:00.000Z',
  approvalRule: 'one',
  fieldOrigins: { ...fixtureCase.fieldOrigins, DateOfBirth: 'read' },
};
/**
 * 'Corrección de datos' (issue 45 item 5): a registered patient asked from Mis datos that their
 * marital status say another value, with their reason (the case's first correction, by
 * 'paciente'); the cédula kept from their registration's case. Approved or rejected, no step repeated.
 */
export const correctionCase: CaseDetail = {
  ...fixtureCase,
  id: 'c5e1a7b3-2d4f-4c6a-8e9b-1f3a5c7e9b20',
  kind: 'correction',
  trigger: 'patient_correction',
  step: 'front',
  fields: { ...fixtureCase.fields, MaritalStatus: 'CASADA' },
  corrections: [
    {
      field: 'MaritalStatus',
      from: 'SOLTERA',
      to: 'CASADA',
      reason: 'Me casé en marzo de 2025',
      operator: 'paciente',
      at: minutesAgo(45),
    },
  ],
  engineReasons: [],
  faceSimilarity: null,
  faceThreshold: null,
  attempts: { liveness: 0, scans: 0 },
  images: ['front', 'back'],
  approvalRule: 'one',
  fieldOrigins: { ...fixtureCase.fieldOrigins, DateOfBirth: 'read', MaritalStatus: 'typed' },
  patientClaim: { field: 'MaritalStatus', says: 'CASADA' },
};
