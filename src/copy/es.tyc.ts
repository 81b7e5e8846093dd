import { PRIVACY_VERSION, TERMS_VERSION } from '../../machines/onboarding/onboarding.types';
import { appName } from './es';

/**
 * The two facts about the service these terms cannot know: its legal name and where patients
 * reach it. Each deployment writes its own here before publishing (docs/operators.md, "The terms
 * page"); everything else is the service's terms as they stand.
 */
export const SERVICE_LEGAL_NAME = '[Nombre legal del servicio de salud]';
export const SERVICE_CONTACT =
  '[Dirección de la ventanilla de atención al paciente, teléfono y correo electrónico del servicio]';

/** Términos y condiciones y política de privacidad del servicio (issue 29 item 18). */
export const tyc = {
  title: 'Términos y condiciones y política de privacidad',
  updated: 'Última actualización: 24 de noviembre de 2026.',
  // What registration records as accepted (contract/terms.ts): change it with the text.
  versions: `Términos y condiciones: versión ${TERMS_VERSION}. Política de privacidad: versión ${PRIVACY_VERSION}.`,
  back: 'Volver',
  sections: [
    {
      title: '1. Quiénes somos y qué aceptás',
      paragraphs: [
        `${appName} es la aplicación de ${SERVICE_LEGAL_NAME} (en adelante, «el servicio»), responsable del tratamiento de tus datos. Con ella las personas pacientes del servicio se registran, verifican su identidad e ingresan a sus servicios digitales. Al marcar la casilla de aceptación y usar la aplicación aceptás estos términos y la política de privacidad que sigue.`,
        'Si no estás de acuerdo, no completes el registro. Podés seguir atendiéndote de forma presencial en los establecimientos del servicio.',
      ],
    },
    {
      title: '2. Tu cuenta, tu PIN y tu responsabilidad',
      paragraphs: [
        'Tu cuenta se identifica con tu número de cédula de identidad y un PIN de 6 dígitos que elegís vos. El PIN es personal e intransferible: no lo compartas con nadie, ni siquiera con personal del servicio, que nunca te lo va a pedir.',
        'Evitá secuencias fáciles y fechas de nacimiento. Si creés que otra persona conoce tu PIN, cambialo desde «¿Olvidaste tu PIN?». Por tu seguridad, después de varios intentos fallidos la cuenta se bloquea hasta que recuperes el PIN por SMS.',
        'Te comprometés a dar datos verdaderos y a usar solamente tu propia identidad. Registrar a otra persona o usar documentos ajenos puede constituir un delito.',
      ],
    },
    {
      title: '3. Qué datos tratamos',
      paragraphs: [
        'Datos de identificación: nombres, apellidos, número de documento, fecha de nacimiento, sexo, nacionalidad y estado civil, leídos de tu cédula con tu autorización.',
        'Datos de contacto: número de celular (verificado con un código por SMS) y, si lo das, correo electrónico.',
        'Datos de salud: tipo de sangre, si lo informás, y la información clínica que generen los servicios que uses dentro de la aplicación (autoconsulta, historial, emergencias).',
        'Datos biométricos: durante la verificación de identidad tomamos una selfie con prueba de vida (parpadeo) y fotos de tu cédula. Con ellas calculamos una descripción facial (un conjunto de números que no permite reconstruir tu cara). Guardamos esa descripción, no las fotos: las imágenes se guardan solamente si la configuración del servicio lo dispone expresamente (por ejemplo, porque una norma o una orden de autoridad competente lo exige), y en ese caso te lo informamos.',
        'Para detectar fotos o videos reenviados guardamos, de cada imagen de la cámara, una huella numérica que no permite reconstruirla.',
        'Datos técnicos: fecha y hora de acceso, dirección de red y tipo de dispositivo, para seguridad y prevención de fraude.',
        'Datos de uso sin identificarte: qué pasos del registro, del ingreso y de la recuperación del PIN se completan, cuánto tardan y por qué fallan (por ejemplo, «poca luz»), para mejorar la aplicación. No incluyen tu nombre, documento, celular, PIN, códigos ni imágenes, y no se vinculan con tu cuenta.',
      ],
    },
    {
      title: '4. Para qué los usamos',
      paragraphs: [
        'Para verificar que sos quien decís ser, crear y proteger tu cuenta, permitirte ingresar (incluida la autenticación facial en los puestos de atención), darte acceso a tus servicios de salud y comunicarte avisos sobre tu cuenta.',
        'No vendemos tus datos. No los usamos para publicidad. Los datos de salud y biométricos se usan solamente para las finalidades indicadas y con las medidas de seguridad reforzadas que exige su carácter sensible.',
      ],
    },
    {
      title: '5. Base legal y consentimiento',
      paragraphs: [
        'Tratamos tus datos conforme a la Constitución Nacional (artículos 33 y 135), la Ley N.º 7593/2025 de protección de datos personales, la normativa paraguaya sobre la historia clínica, y con tu consentimiento expreso, que das al aceptar estos términos. Tus datos biométricos y de salud son datos sensibles y los tratamos con las garantías reforzadas que esa ley exige. Podés retirar tu consentimiento en cualquier momento; eso puede impedir que sigas usando la aplicación, sin afectar tu atención presencial.',
      ],
    },
    {
      title: '6. Con quién los compartimos',
      paragraphs: [
        'Con el personal de salud autorizado que te atiende, con proveedores que nos prestan servicios técnicos (alojamiento, envío de SMS) bajo contrato de confidencialidad y solo en la medida necesaria, y con autoridades cuando una ley u orden judicial lo exija.',
      ],
    },
    {
      title: '7. Cuánto tiempo los guardamos y cómo los protegemos',
      paragraphs: [
        'Tus datos de identificación, de contacto y tu descripción facial: mientras tengas una cuenta activa y, después, por los plazos que fijen las normas sobre historia clínica. La descripción facial se elimina cuando cerrás tu cuenta.',
        'Una verificación de identidad que no terminó, y las huellas de las imágenes de la cámara: 72 horas. Un reconocimiento en un puesto de atención: se olvida al terminar, y a los 5 minutos como máximo. Los códigos por SMS vencen a los 5 minutos. Los datos de uso sin identificarte: 90 días.',
        'Aplicamos cifrado en tránsito, control de acceso, registros de auditoría y almacenamiento de tu PIN de forma irreversible. Ningún registro del sistema guarda tu PIN, tus códigos ni tus imágenes.',
      ],
    },
    {
      title: '8. Tus derechos',
      paragraphs: [
        `Podés pedir acceso, rectificación, actualización, supresión y oposición respecto de tus datos, y una copia de ellos, en la ventanilla de atención al paciente o por los canales oficiales del servicio: ${SERVICE_CONTACT}. Te responderemos en los plazos legales.`,
        'Para pedir que borremos tus datos (por ejemplo, tu descripción facial o tu cuenta entera), acercate con tu cédula a la ventanilla de atención al paciente o escribí por los canales oficiales del servicio indicando tu número de documento y tu celular registrado. Antes de borrar verificamos que seas vos; te confirmamos por SMS cuando esté hecho. Lo que una norma obliga a conservar (por ejemplo, la historia clínica) se guarda solamente por el plazo legal.',
      ],
    },
    {
      title: '9. Cambios y contacto',
      paragraphs: [
        `Si cambiamos estos términos te avisaremos en la aplicación antes de que entren en vigor. Para consultas sobre privacidad, dirigite al responsable de protección de datos de ${SERVICE_LEGAL_NAME}: ${SERVICE_CONTACT}.`,
      ],
    },
  ],
} as const;
