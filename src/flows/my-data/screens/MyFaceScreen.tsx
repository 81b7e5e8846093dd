import { useSelector } from '@xstate/react';
import { useRef, type FormEvent, type ReactNode, type RefObject } from 'react';
import type { ActorRefFrom } from 'xstate';
import { selectMyFaceRef } from '../../../../machines/my-data/my-data.selectors';
import type { MyFaceMachine } from '../../../../machines/my-data/my-face.machine';
import { selectMyFaceView, type MyFaceView } from '../../../../machines/my-data/my-face.selectors';
import { AppLinkButton, Button, SubmitButton } from '../../../components/Button';
import { ErrorBanner } from '../../../components/ErrorBanner';
import { OtpInput } from '../../../components/OtpInput';
import { Muted, Stack } from '../../../components/Page';
import { PinField } from '../../../components/PinField';
import { useFocusAfterFailure } from '../../../components/useFocusAfterFailure';
import { myFace as copy } from '../../../copy/es.myFace';
import { MyDataActor } from '../my-data.context';
import { MyDataFrame } from './MyDataFrame';
import { Section, SectionTitle } from './my-data.styles';

type FaceRef = ActorRefFrom<MyFaceMachine>;

/** Item 4, 'Mi rostro': the face's state and what it allows (the myFace child machine). */
export function MyFaceScreen() {
  const ref = MyDataActor.useSelector(selectMyFaceRef);
  return (
    <MyDataFrame>
      {ref ? <FacePanel face={ref} /> : <Muted role="status">{copy.loading}</Muted>}
    </MyDataFrame>
  );
}

/** The section's content for one myFace actor (stories restore it at a fixture). */
export function FacePanel({ face }: { face: FaceRef }) {
  const view = useSelector(face, selectMyFaceView);
  return (
    <Section aria-labelledby="my-face-title">
      <SectionTitle id="my-face-title">{copy.title}</SectionTitle>
      <Muted>{copy.intro}</Muted>
      {view.notice ? <ErrorBanner tone="info" message={view.notice} /> : null}
      <Body view={view} face={face} />
    </Section>
  );
}

/** The error under a form or a button: the server's sentence, or the connection's. */
function Failure({ view }: { view: MyFaceView }) {
  if (!view.error) return null;
  if (view.sessionEnded)
    return (
      <>
        <ErrorBanner message={copy.sessionEnded} />
        <AppLinkButton to="/login">{copy.login}</AppLinkButton>
      </>
    );
  return <ErrorBanner message={view.error.serverMessage ?? copy.network} />;
}

function Body({ view, face }: { view: MyFaceView; face: FaceRef }) {
  const send = face.send;
  const since = <p>{copy.since(view.face?.since ?? null)}</p>;
  switch (view.screen) {
    case 'loading':
      return <Muted role="status">{copy.loading}</Muted>;
    case 'failed':
      return (
        <>
          {view.sessionEnded ? <Failure view={view} /> : <ErrorBanner message={copy.failed} />}
          {view.sessionEnded ? null : (
            <Button type="button" onClick={() => send({ type: 'face.retry' })}>
              {copy.retry}
            </Button>
          )}
        </>
      );
    case 'none':
    case 'withdrawn':
      return (
        <>
          {view.screen === 'withdrawn' ? <h3>{copy.withdrawnTitle}</h3> : null}
          <p>
            <strong>{copy.none}</strong>
          </p>
          <p>{copy.noneDetail}</p>
          <Muted>{copy.noReenrol}</Muted>
          <Muted>{copy.evidenceNote}</Muted>
        </>
      );
    case 'unlocked':
      return (
        <>
          {since}
          <p>{copy.active}</p>
          <Failure view={view} />
          <Muted>{copy.lockHelp}</Muted>
          <Button
            type="button"
            disabled={view.busy !== null}
            onClick={() => send({ type: 'face.lock' })}
          >
            {view.busy === 'locking' ? copy.locking : copy.lock}
          </Button>
          <Withdraw view={view} face={face} />
        </>
      );
    case 'locked':
      return (
        <>
          {since}
          <p>{copy.locked(view.face?.lockedAt ?? null)}</p>
          <Failure view={view} />
          <Muted>{copy.unlockHelp(view.face?.celular ?? null)}</Muted>
          <Button
            type="button"
            disabled={view.busy !== null}
            onClick={() => send({ type: 'face.unlock' })}
          >
            {view.busy === 'sendingCode' ? copy.sendingCode : copy.unlock}
          </Button>
          <Withdraw view={view} face={face} />
        </>
      );
    case 'unlocking':
      return <UnlockForm view={view} face={face} />;
    case 'withdrawing':
      return <WithdrawForm view={view} face={face} />;
  }
}

function Withdraw({ view, face }: { view: MyFaceView; face: FaceRef }) {
  return (
    <>
      <Muted>{copy.withdrawHelp}</Muted>
      <Button
        type="button"
        $variant="secondary"
        disabled={view.busy !== null}
        onClick={() => face.send({ type: 'face.withdraw' })}
      >
        {copy.withdraw}
      </Button>
    </>
  );
}

/**
 * A form confirmed with the PIN (unlock, withdraw): its text, the PIN, what else it asks for, the
 * error of the last try (what was typed stays), submit and cancel.
 */
function PinForm(props: {
  view: MyFaceView;
  face: FaceRef;
  title: string;
  intro: ReactNode;
  fields?: ReactNode;
  /** the form's other field (the code), focused when a failed submit was about it */
  other?: RefObject<HTMLInputElement | null>;
  submit: string;
  submitting: string;
  missing: string;
  after?: ReactNode;
}) {
  const { view, face } = props;
  const busy = view.busy !== null;
  const pin = useRef<HTMLInputElement>(null);
  // A wrong PIN or code: back to the field to fix (what was typed stays), not to <body>.
  useFocusAfterFailure(view.failures, () =>
    view.focus === 'otp' && props.other ? props.other.current : pin.current,
  );
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    face.send({ type: 'face.submit' });
  };
  return (
    <form method="post" onSubmit={onSubmit} noValidate aria-busy={busy}>
      <Stack $gap={12}>
        <h3>{props.title}</h3>
        {props.intro}
        <PinField
          ref={pin}
          label={copy.pinLabel}
          name="pin"
          autoComplete="current-password"
          value={view.pin}
          onValueChange={(value) => face.send({ type: 'pin.change', value })}
          disabled={busy}
          required
        />
        {props.fields}
        <Failure view={view} />
        <SubmitButton disabled={!view.canSubmit || busy} reason={busy ? null : props.missing}>
          {busy && view.busy !== 'sendingCode' ? props.submitting : props.submit}
        </SubmitButton>
        {props.after}
        <Button
          type="button"
          $variant="secondary"
          disabled={busy}
          onClick={() => face.send({ type: 'face.cancel' })}
        >
          {copy.cancel}
        </Button>
      </Stack>
    </form>
  );
}

function UnlockForm({ view, face }: { view: MyFaceView; face: FaceRef }) {
  const otp = useRef<HTMLInputElement>(null);
  return (
    <PinForm
      view={view}
      face={face}
      other={otp}
      title={copy.unlockTitle}
      intro={<Muted>{copy.unlockIntro}</Muted>}
      fields={
        <OtpInput
          ref={otp}
          length={6}
          label={copy.otpLabel}
          name="otp"
          value={view.otp}
          onValueChange={(value) => face.send({ type: 'otp.change', value })}
          readOnly={view.busy !== null}
          required
        />
      }
      submit={copy.unlockSubmit}
      submitting={copy.unlocking}
      missing={copy.unlockMissing}
      after={
        <Button
          type="button"
          $variant="secondary"
          disabled={view.busy !== null}
          onClick={() => face.send({ type: 'face.code.resend' })}
        >
          {view.busy === 'sendingCode' ? copy.sendingCode : copy.resend}
        </Button>
      }
    />
  );
}

function WithdrawForm({ view, face }: { view: MyFaceView; face: FaceRef }) {
  return (
    <PinForm
      view={view}
      face={face}
      title={copy.withdrawTitle}
      intro={
        <>
          <p>{copy.withdrawHelp}</p>
          <Muted>{copy.evidenceNote}</Muted>
          <Muted>{copy.withdrawIntro}</Muted>
        </>
      }
      submit={copy.withdrawSubmit}
      submitting={copy.withdrawing}
      missing={copy.withdrawMissing}
    />
  );
}
