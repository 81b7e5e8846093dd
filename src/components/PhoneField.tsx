import { PHONE_INPUT_MAX_LENGTH } from '../../machines/shared/phone';
import { TextField, type TextFieldProps } from './TextField';

/**
 * The one mobile-number field (registration and PIN recovery): a `tel` input that keeps what the
 * patient types or pastes (`+595 981 123456`, `0981 123 456`, `981123456`); the machine's input
 * rule (machines/shared/input.ts phoneFromInput) decides whether it is a Paraguayan mobile.
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
