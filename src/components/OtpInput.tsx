import styled from 'styled-components';
import { theme } from '../theme/theme';
import { TextField, type TextFieldProps } from './TextField';

const Wide = styled.div`
  input {
    letter-spacing: 0.5em;
    font-size: 1.5rem;
    font-variant-numeric: tabular-nums;
    color: ${theme.colors.text};
  }
`;

/**
 * One field for a whole SMS code: the phone offers the code from the SMS (one-time-code), the
 * numeric keypad opens, and a pasted code arrives in one change (no maxLength, so '482 915' is
 * not cut before the machine strips it). The machine keeps the digits.
 */
export function OtpInput({
  length,
  ...field
}: Omit<TextFieldProps, 'type' | 'inputMode' | 'autoComplete'> & { length: number }) {
  return (
    <Wide>
      <TextField
        {...field}
        type="text"
        inputMode="numeric"
        autoComplete="one-time-code"
        pattern={`[0-9]{${length}}`}
        spellCheck={false}
      />
    </Wide>
  );
}
