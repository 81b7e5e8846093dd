import { useState } from 'react';
import styled from 'styled-components';
import { PIN_LENGTH } from '../../machines/shared/input';
import { pinField as copy } from '../copy/es';
import { theme } from '../theme/theme';
import { TextField, type TextFieldProps } from './TextField';

const Toggle = styled.button`
  flex: none;
  min-width: 44px;
  padding: 0 14px;
  border: none;
  border-left: 1px solid ${theme.colors.border};
  background: ${theme.colors.background};
  color: ${theme.colors.primaryDark};
  font: inherit;
  font-weight: 600;
  font-size: 0.9375rem;
  cursor: pointer;
  &:focus-visible {
    outline: 3px solid ${theme.colors.focus};
    outline-offset: -3px;
  }
  &:disabled {
    color: ${theme.colors.muted};
    cursor: not-allowed;
  }
`;

/**
 * A masked 6-digit PIN field with a show/hide button, so a typo is seen before it is saved. Whether
 * the digits show is this field's own display choice (it changes nothing a machine keeps); it
 * starts masked.
 */
export function PinField(
  props: Omit<TextFieldProps, 'type' | 'inputMode' | 'maxLength' | 'suffix'>,
) {
  const [visible, setVisible] = useState(false);
  return (
    <TextField
      {...props}
      type={visible ? 'text' : 'password'}
      inputMode="numeric"
      maxLength={PIN_LENGTH}
      spellCheck={false}
      suffix={
        <Toggle type="button" onClick={() => setVisible((v) => !v)} disabled={props.disabled}>
          {visible ? copy.hide : copy.show}
        </Toggle>
      }
    />
  );
}

/** A PIN being chosen (step 2, 'Elegí otro PIN', recovery's new PIN): the browser may offer one. */
export function NewPinField(props: Parameters<typeof PinField>[0]) {
  return (
    <PinField
      name="new-pin"
      autoComplete="new-password"
      placeholder={copy.placeholder}
      {...props}
    />
  );
}
