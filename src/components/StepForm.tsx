import { type FormEvent, type ReactNode, useRef } from 'react';
import { common } from '../copy/es';
import { BackButton } from './BackLink';
import { Heading } from './Heading';
import { Header, Muted, Page, Stack } from './Page';
import { type TypedValueHandlers, useAdoptTypedValues } from './useHydrated';

/**
 * The back arrow of a step: any arrow (`back`: a BackLink or a BackButton of its own), or the
 * wizard's (`onBack`: a BackButton 'Volver al inicio', or `backLabel`, disabled by `backDisabled`).
 */
type StepBack =
  | { back: ReactNode; onBack?: never; backLabel?: never; backDisabled?: never }
  | { back?: never; onBack: () => void; backLabel?: string; backDisabled?: boolean };

/**
 * A flow step with a form: the back arrow, the title that takes focus when the step appears (unless
 * `titleFocus` is false: a step whose field takes it, as recovery's code), an
 * optional intro line, then the fields. Submitting sends `onSubmit` without reloading the page. On
 * a prerendered page, `adopt` names the fields whose text typed before hydration goes to the
 * machine (useAdoptTypedValues).
 */
export function StepForm({
  back,
  onBack,
  backLabel = common.backHome,
  backDisabled = false,
  title,
  intro,
  onSubmit,
  busy = false,
  adopt,
  titleFocus = true,
  children,
}: StepBack & {
  title: string;
  /** the title takes the focus when the step appears; false where a field takes it instead */
  titleFocus?: boolean;
  intro?: string | undefined;
  onSubmit: () => void;
  busy?: boolean;
  adopt?: TypedValueHandlers | undefined;
  children: ReactNode;
}) {
  const form = useRef<HTMLFormElement>(null);
  useAdoptTypedValues(form, adopt);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSubmit();
  };
  return (
    <Page>
      <Header>
        {onBack ? <BackButton label={backLabel} onClick={onBack} disabled={backDisabled} /> : back}
      </Header>
      {/* POST: a submit before hydration (these pages are prerendered) must not put what was
          typed into a URL. */}
      <form ref={form} method="post" onSubmit={submit} noValidate aria-busy={busy}>
        <Stack>
          <Heading focusOnMount={titleFocus}>{title}</Heading>
          {intro ? <Muted>{intro}</Muted> : null}
          {children}
        </Stack>
      </form>
    </Page>
  );
}
