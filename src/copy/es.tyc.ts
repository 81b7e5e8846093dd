import { appName } from './es';

/**
 * Términos y condiciones y política de privacidad. PLANTILLA: la redacción final debe revisarla
 * la asesoría jurídica del servicio de salud antes de su publicación.
 */
export const tyc = {
  title: 'Términos y condiciones y política de privacidad',
  templateNotice:
    'Plantilla sujeta a revisión por la asesoría jurídica del servicio de salud. No constituye todavía el texto legal definitivo.',
  updated: 'Última actualización: 21 de noviembre de 2026.',
  back: 'Volver',
  sections: [
    {
      title: '1. Quiénes somos y qué aceptás',
      paragraphs: [
        `${appName} es la aplicación con la que las personas pacientes del servicio de salud se registran, verifican su identidad e ingresan a sus servicios digitales. Al marcar la casilla de aceptación y usar la aplicación aceptás estos términos y la política de privacidad que sigue.`,
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
        'Datos biométricos: durante la verificación de identidad tomamos una selfie con prueba de vida (parpadeo) y fotos de tu cédula. Con ellas calculamos una plantilla facial (un conjunto de números que no permite reconstruir tu cara). Guardamos la plantilla, no las fotos, salvo que una norma o una orden de autoridad competente nos obligue a conservarlas.',
        'Datos técnicos: fecha y hora de acceso, dirección de red y tipo de dispositivo, para seguridad y prevención de fraude.',
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
        'Tratamos tus datos conforme a la Constitución Nacional (artículos 33 y 135), la Ley N.º 6534/2020 de protección de datos personales crediticios y demás normativa paraguaya aplicable a datos personales y a la historia clínica, y con tu consentimiento expreso, que das al aceptar estos términos. Podés retirar tu consentimiento en cualquier momento; eso puede impedir que sigas usando la aplicación, sin afectar tu atención presencial.',
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
        'Guardamos tus datos mientras tengas una cuenta activa y, después, por los plazos que fijen las normas sobre historia clínica. La plantilla facial se elimina cuando cerrás tu cuenta.',
        'Aplicamos cifrado en tránsito, control de acceso, registros de auditoría y almacenamiento de tu PIN de forma irreversible. Ningún registro del sistema guarda tu PIN, tus códigos ni tus imágenes.',
      ],
    },
    {
      title: '8. Tus derechos',
      paragraphs: [
        'Podés pedir acceso, rectificación, actualización, supresión y oposición respecto de tus datos, y una copia de ellos, en la ventanilla de atención al paciente o por los canales oficiales del servicio. Te responderemos en los plazos legales.',
      ],
    },
    {
      title: '9. Cambios y contacto',
      paragraphs: [
        'Si cambiamos estos términos te avisaremos en la aplicación antes de que entren en vigor. Para consultas sobre privacidad, dirigite al responsable de protección de datos del servicio de salud.',
      ],
    },
  ],
} as const;
