import { useRef, type ReactNode } from 'react';
import type { DeletionView } from '../../../../machines/my-data/deletion.selectors';
import type { DeletionEvent } from '../../../../machines/my-data/deletion.types';
import { Button, SubmitButton } from '../../../components/Button';
import { OtpInput } from '../../../components/OtpInput';
import { Muted } from '../../../components/Page';
import { PinField } from '../../../components/PinField';
import { useFocusAfterFailure } from '../../../components/useFocusAfterFailure';
import { myDataDeletion as copy } from '../../../copy/es.myDataDeletion';
import { Section, SectionTitle } from './my-data.styles';

type StepProps = { view: DeletionView; send: (event: DeletionEvent) => void; error: ReactNode };

/** The PIN (what was typed stays after an error: the machine keeps it). */
export function PinStep({ view, send, error }: StepProps) {
  const field = useRef<HTMLInputElement>(null);
  useFocusAfterFailure(view.failures, () => field.current);
  return (
    <Section aria-labelledby="deletion-pin">
      <SectionTitle id="deletion-pin">{copy.pinTitle}</SectionTitle>
      <Muted>{copy.pinIntro}</Muted>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          send({ type: 'pin.submit' });
        }}
      >
        <PinField
          ref={field}
          label={copy.pinLabel}
          name="pin"
          autoComplete="current-password"
          value={view.pin}
          onValueChange={(value) => send({ type: 'pin.change', value })}
          disabled={view.busy}
        />
        {error}
        <SubmitButton disabled={!view.canSendPin}>
          {view.busy ? copy.sending : copy.sendCode}
        </SubmitButton>
      </form>
      <Button type="button" $variant="secondary" onClick={() => send({ type: 'deletion.back' })}>
        {copy.back}
      </Button>
    </Section>
  );
}

/** The SMS code, its resend (too early: the server's 429 says when), and the request itself. */
export function CodeStep({ view, send, error }: StepProps) {
  const field = useRef<HTMLInputElement>(null);
  useFocusAfterFailure(view.failures, () => field.current);
  return (
    <Section aria-labelledby="deletion-code">
      <SectionTitle id="deletion-code">{copy.codeTitle}</SectionTitle>
      <Muted>{copy.codeIntro}</Muted>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          send({ type: 'code.submit' });
        }}
      >
        <OtpInput
          length={view.codeLength}
          ref={field}
          label={copy.codeLabel}
          name="codigo"
          value={view.code}
          onValueChange={(value) => send({ type: 'code.change', value })}
          disabled={view.busy}
        />
        {error}
        <SubmitButton disabled={!view.canConfirm}>
          {view.busy ? copy.confirming : copy.confirm}
        </SubmitButton>
      </form>
      <Button
        type="button"
        $variant="secondary"
        disabled={view.busy}
        onClick={() => send({ type: 'code.resend' })}
      >
        {copy.resend}
      </Button>
      <Button type="button" $variant="secondary" onClick={() => send({ type: 'deletion.back' })}>
        {copy.back}
      </Button>
    </Section>
  );
}
