import { PHONE_INPUT_MAX_LENGTH } from '../../machines/shared/phone';
import { TextField, type TextFieldProps } from './TextField';

/**
 * The one mobile-number field (registration and PIN recovery): a `tel` input with room for what a
 * patient pastes (`+595 981 123456`, `0981 123 456`, `981123456`); the flow's machine decides what
 * it keeps (registration as typed, recovery digits only, at most 10) and the one rule
 * (machines/shared/phone.ts phoneFromInput) whether it is a Paraguayan mobile.
 */
export function PhoneField(
  props: Omit<TextFieldProps, 'type' | 'inputMode' | 'maxLength' | 'autoComplete'>,
) {
  return (
    <TextField
      type="tel"
      inputMode="tel"
      autoComplete="tel-national"
      maxLength={PHONE_INPUT_MAX_LENGTH}
      {...props}
    />
  );
}
