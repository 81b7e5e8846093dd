import { z } from 'zod';
import { digits } from './common';
import { DOCUMENT_MAX, DOCUMENT_MIN, PIN_LENGTH } from './login';

/** A patient as the operator command creates or updates it. */
export const patientInput = z.object({
  numero_documento: digits(DOCUMENT_MIN, DOCUMENT_MAX),
  pin: digits(PIN_LENGTH, PIN_LENGTH),
  celular: z
    .string()
    .regex(/^09\d{8}$/)
    .optional(),
  nombre: z.string().trim().min(1).max(120),
  apellido: z.string().trim().min(1).max(120),
  email: z.string().email().optional(),
  /** YYYY-MM-DD, as the cédula gives it at registration (the PIN rules refuse a PIN made from it) */
  fecha_nacimiento: z.iso.date().optional(),
});
export type PatientInput = z.infer<typeof patientInput>;
