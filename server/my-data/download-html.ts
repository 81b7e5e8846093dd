import type { IDENTITY_FIELDS } from '../../contract/case-fields';
import type { CaseStatusName, CaseTrigger, OperatorCaseKind } from '../../contract/cases';
import type { KycDeciderName, KycSessionStatus } from '../../contract/identity';
import type { AccessKind, FIELD_SOURCES } from '../../contract/my-data';
import type { DownloadContent } from './download-content';

/**
 * The download's readable summary (issue 45 item 2): resumen.html beside datos.json in the same
 * file, in Spanish, self-contained (inline CSS, no script); the images it shows are the file's own
 * (imagenes/...), so it reads offline once the file is opened. Every value is escaped.
 */

const escape = (s: unknown) =>
  String(s ?? '').replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

const when = new Intl.DateTimeFormat('es-PY', {
  timeZone: 'America/Asuncion',
  dateStyle: 'long',
  timeStyle: 'short',
});
const at = (value: string | null) => (value ? when.format(new Date(value)) : 'Sin dato');

// The labels repeat src/copy/es.myData.ts (the server cannot import the app's copy); typed by the
// contract's lists, so a kind or field added later fails the typecheck here rather than printing
// its code in the summary.
const FIELDS: Record<(typeof IDENTITY_FIELDS)[number], string> = {
  FullName: 'Nombre completo',
  DocumentNumber: 'Número de cédula',
  DateOfBirth: 'Fecha de nacimiento',
  Gender: 'Sexo',
  Nationality: 'Nacionalidad',
  MaritalStatus: 'Estado civil',
};
const SOURCES: Record<(typeof FIELD_SOURCES)[number], string> = {
  engine: 'Leído de tu cédula por el sistema',
  person: 'Corregido por una persona del servicio',
};
const ACCESS: Record<AccessKind, string> = {
  case_view: 'Una persona del servicio abrió tu verificación',
  case_image: 'Una persona del servicio miró una imagen de tu verificación',
  case_lookup: 'En un centro de salud buscaron tu verificación con su código',
  login: 'Ingreso con cédula y PIN',
  pin_recovery: 'Cambiaste tu PIN con un código por SMS',
  face_login: 'Ingreso con tu rostro',
  kiosk: 'Un kiosco te reconoció por tu rostro',
  my_data: 'Miraste Mis datos',
  download: 'Descargaste tus datos',
  secondary_use: 'Cambiaste tu elección sobre otros usos de tus datos',
  deletion_request: 'Pediste eliminar tu cuenta',
  deletion_cancel: 'Cancelaste la eliminación de tu cuenta',
  face_lock: 'Bloqueaste el reconocimiento de tu rostro',
  face_unlock: 'Desbloqueo del reconocimiento de tu rostro',
  face_withdraw: 'Borraste tu rostro',
  correction: 'Pediste corregir un dato',
};
/** A failed try says what was tried (src/copy/es.myData.ts failedKinds). */
const FAILED_ACCESS: Partial<Record<AccessKind, string>> = {
  pin_recovery: 'Intento de recuperar tu PIN con un código por SMS',
};
/** The words the page says too (tests/server/my-data-download-words.test.ts holds them equal). */
export const SUMMARY_WORDS_SHARED_WITH_PAGE = {
  fields: FIELDS,
  sources: SOURCES,
  kinds: ACCESS,
  failedKinds: FAILED_ACCESS,
};
const RESULTS: Record<string, string> = { ok: 'Correcto', failed: 'Fallido', locked: 'Bloqueado' };
const KINDS: Record<OperatorCaseKind, string> = {
  review: 'Revisión por una persona',
  centro: 'Verificación en un centro de salud',
  duplicate: 'Revisión de un posible registro doble',
  correction: 'Corrección de datos que pediste',
};
const STATUSES: Record<CaseStatusName, string> = {
  open: 'Esperando una decisión',
  approved: 'Aprobada',
  rejected: 'Rechazada',
  repeat: 'Se pidió repetir un paso',
  expired: 'Venció sin visita',
};
const TRIGGERS: Record<CaseTrigger, string> = {
  patient_choice: 'Pediste ayuda de una persona',
  liveness_failed: 'La selfie no pasó la prueba de vida',
  document_unreadable: 'No se pudo leer tu cédula',
  no_face_on_document: 'No se encontró la foto en tu cédula',
  face_mismatch: 'Tu cara no coincidió con la de la cédula',
  document_mismatch: 'El frente y el dorso parecían de cédulas distintas',
  no_camera: 'No había una cámara disponible',
  possible_duplicate: 'Tu cara se parecía a la de otra persona registrada',
  patient_correction: 'Pediste corregir un dato',
};
/** A verification's state and who decided it (contract/identity.ts' lists), and its known reasons. */
const VERIFICATION_STATES: Record<KycSessionStatus, string> = {
  liveness: 'Sin terminar: la selfie no pasó la prueba de vida',
  live: 'Sin terminar: faltaba leer tu cédula',
  completed: 'Completada',
  rejected: 'Rechazada',
};
const DECIDERS: Record<KycDeciderName, string> = {
  blink: 'El sistema (selfie con parpadeos)',
  operator: 'Una persona del servicio',
};
const VERIFICATION_REASONS: Record<string, string> = {
  case_opened: 'Pasó a que la revise una persona',
};
/** The case history's actions (server/cases/audit.ts); an image's look names the image. */
const ACTIONS: Record<string, string> = {
  open: 'Se abrió el caso',
  view: 'Una persona lo miró',
  refused: 'Se rechazó una acción',
  correct: 'Se corrigió un dato',
  approve: 'Una persona aprobó',
  void: 'Se anuló una aprobación',
  reject: 'Una persona rechazó',
  repeat: 'Se pidió repetir un paso',
  claim: 'Una persona lo tomó',
  release: 'Una persona lo dejó',
  lookup: 'Un centro de salud lo buscó con su código',
  desk_photo: 'Un centro de salud tomó una foto',
  expire: 'Venció',
  purge: 'Se borraron sus imágenes',
};
const action = (a: string) =>
  a.startsWith('image:') ? `Una persona miró una imagen (${a.slice(6)})` : (ACTIONS[a] ?? a);
const label = <K extends string>(labels: Record<K, string>, code: string) =>
  labels[code as K] ?? code;

function table(caption: string, head: string[], rows: unknown[][]): string {
  if (!rows.length) return `<p><strong>${escape(caption)}:</strong> nada registrado.</p>`;
  return `<table><caption>${escape(caption)}</caption>
<thead><tr>${head.map((h) => `<th scope="col">${escape(h)}</th>`).join('')}</tr></thead>
<tbody>${rows.map((r) => `<tr>${r.map((c) => `<td>${escape(c)}</td>`).join('')}</tr>`).join('\n')}</tbody></table>`;
}

/** When the terms were accepted and which versions (unknown for patients registered before). */
function termsText(t: DownloadContent['consents']['terms']): string {
  if (!t.acceptedAt) return 'Aceptados al registrarte (no guardamos la fecha)';
  const versions = [
    t.version && `términos: versión ${t.version}`,
    t.privacyVersion && `privacidad: versión ${t.privacyVersion}`,
  ].filter(Boolean);
  return `Aceptados el ${at(t.acceptedAt)} (${versions.join('; ') || 'no guardamos qué versión'})`;
}

export function downloadHtml(c: DownloadContent): string {
  const d = c.data;
  const name = d.identity.find((f) => f.field === 'FullName')?.value ?? '';
  const cases = c.cases.map(
    (
      k,
    ) => `<section aria-labelledby="caso-${k.number}"><h3 id="caso-${k.number}">Verificación asistida ${k.number}</h3>
${table(
  'El caso',
  ['Tipo', 'Estado', 'Motivo', 'Abierto', 'Decidido', 'Imágenes guardadas hasta'],
  [
    [
      label(KINDS, k.kind),
      label(STATUSES, k.status),
      label(TRIGGERS, k.trigger),
      at(k.openedAt),
      at(k.decidedAt),
      k.purgedAt ? 'Ya borradas' : at(k.keptUntil),
    ],
  ],
)}
${table(
  'Historia del caso',
  ['Acción', 'Cuándo', 'Quién (rol)', 'Campo'],
  k.history.map((h) => [action(h.action), at(h.at), h.role ?? 'El sistema', h.field ?? '']),
)}
${k.images.map((src) => `<figure><img src="${escape(src)}" alt="Imagen ${escape(src)}" width="240"><figcaption>${escape(src)}</figcaption></figure>`).join('\n')}
</section>`,
  );
  return `<!doctype html>
<html lang="es">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Mis datos - ${escape(name)}</title>
<style>
body{font-family:system-ui,sans-serif;margin:0 auto;max-width:60rem;padding:1rem;color:#1a1a1a;line-height:1.5}
table{border-collapse:collapse;width:100%;margin:0.5rem 0 1rem;display:block;overflow-x:auto}
caption{text-align:left;font-weight:700;padding:0.25rem 0}
th,td{border:1px solid #999;padding:0.25rem 0.5rem;text-align:left;vertical-align:top}
figure{display:inline-block;margin:0.5rem}
</style></head>
<body><main>
<h1>Mis datos del Portal del Paciente</h1>
<p>Generado el ${escape(at(c.generatedAt))}. Los mismos datos, para una computadora, están en <code>datos.json</code> dentro de este archivo.</p>
<section aria-labelledby="identidad"><h2 id="identidad">Tus datos de identidad</h2>
${table(
  'Tus datos',
  ['Dato', 'Valor', 'Quién lo escribió'],
  d.identity.map((f) => [FIELDS[f.field] ?? f.field, f.value ?? 'Sin dato', SOURCES[f.source]]),
)}
${table(
  'Tu cuenta',
  ['Dato', 'Valor'],
  [
    ['Celular', d.celular ?? 'Sin dato'],
    ['Correo electrónico', d.email ?? 'Sin dato'],
    ['Fecha de registro', at(d.registeredAt)],
    ['Tipo de sangre', c.otherFields.tipoSangre ?? 'Sin dato'],
    ['Dirección', c.otherFields.direccion ?? 'Sin dato'],
    ['Ciudad', c.otherFields.ciudad ?? 'Sin dato'],
  ],
)}
</section>
<section aria-labelledby="consentimientos"><h2 id="consentimientos">Tus consentimientos</h2>
${table(
  'Consentimientos',
  ['Qué', 'Estado'],
  [
    ['Términos y privacidad', termsText(c.consents.terms)],
    [
      'Tu rostro para ingresar',
      c.consents.face.enrolled
        ? `Registrado desde el ${at(c.consents.face.since)}`
        : 'No registrado',
    ],
    [
      'Usos secundarios',
      c.consents.secondaryUse.optedOut
        ? 'No aceptás ningún uso más allá de tu atención'
        : 'Sin oposición registrada',
    ],
  ],
)}
</section>
<section aria-labelledby="sesiones"><h2 id="sesiones">Tus sesiones</h2>
${table(
  'Sesiones',
  ['Inicio', 'Último uso', 'Vence', 'Cerrada'],
  c.sessions.map((s) => [
    at(s.startedAt),
    at(s.lastSeenAt),
    at(s.expiresAt),
    s.endedAt ? at(s.endedAt) : 'No',
  ]),
)}
</section>
<section aria-labelledby="accesos"><h2 id="accesos">Quién vio tus datos</h2>
${table(
  'Accesos',
  ['Qué', 'Cuándo', 'Resultado', 'Quién (rol)'],
  c.accesses.map((a) => [
    (a.result === 'failed' && FAILED_ACCESS[a.kind]) || ACCESS[a.kind] || a.kind,
    at(a.at),
    RESULTS[a.result] ?? a.result,
    a.role ?? '',
  ]),
)}
</section>
<section aria-labelledby="verificaciones"><h2 id="verificaciones">Verificaciones de identidad</h2>
${table(
  'Decisiones',
  ['Estado', 'Quién decidió', 'Motivo', 'Inicio', 'Fin'],
  c.verifications.map((v) => [
    label(VERIFICATION_STATES, v.status),
    label(DECIDERS, v.decider),
    v.rejectReason ? label(VERIFICATION_REASONS, v.rejectReason) : '',
    at(v.startedAt),
    at(v.completedAt),
  ]),
)}
${cases.join('\n') || '<p>No tuviste verificaciones asistidas.</p>'}
</section>
</main></body></html>
`;
}
