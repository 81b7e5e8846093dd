import styled from 'styled-components';
import {
  selectCase,
  selectDesk,
  selectRejection,
  selectRepeat,
  NOTE_MAX,
} from '../../../../machines/operators/operators.selectors';
import {
  CASE_STEPS,
  CORRECTABLE_FIELDS,
  REJECT_REASONS,
  type EvidenceImage,
  type FieldOrigin,
  type RejectReason,
} from '../../../../machines/operators/operators.types';
import { formatDateTime } from '../../../../machines/shared/format';
import { cameraErrors } from '../../../copy/es.camera';
import { errorText } from '../../../copy/es';
import { caseCopy, operador, operadorTerms, reasonText } from '../../../copy/es.operators';
import { Button } from '../../../components/Button';
import { CameraView } from '../../../components/CameraView';
import { ErrorBanner } from '../../../components/ErrorBanner';
import { Heading } from '../../../components/Heading';
import { Muted, Stack } from '../../../components/Page';
import { SelectField } from '../../../components/SelectField';
import { TextField } from '../../../components/TextField';
import { theme } from '../../../theme/theme';
import { CaseActor } from '../operators.context';
import { CorrectionPanel } from './CorrectionPanel';
import { Actions, Badge, Busy, H2, Panel } from './parts';

const Pair = styled.div`
  display: grid;
  gap: 12px;
  grid-template-columns: 1fr 1fr;
`;
/** Both images of a pair at the same size: the same box, the picture fitted inside it. */
const Figure = styled.figure`
  margin: 0;
  display: flex;
  flex-direction: column;
  gap: 6px;
  img,
  div {
    width: 100%;
    aspect-ratio: 4 / 5;
    object-fit: contain;
    background: ${theme.colors.background};
    border: 1px solid ${theme.colors.border};
    border-radius: ${theme.radius}px;
  }
  div {
    display: flex;
    align-items: center;
    justify-content: center;
    color: ${theme.colors.muted};
  }
  figcaption {
    font-size: 0.9375rem;
    color: ${theme.colors.muted};
  }
`;
const CardFigure = styled(Figure)`
  img,
  div {
    aspect-ratio: 85.6 / 54;
  }
`;
const Fields = styled.dl`
  margin: 0;
  display: grid;
  grid-template-columns: minmax(140px, max-content) 1fr auto;
  gap: 8px 12px;
  align-items: center;
  dt {
    font-weight: 600;
  }
  dd {
    margin: 0;
  }
  button {
    width: auto;
    min-height: 40px;
  }
`;
const Summary = styled.dl`
  margin: 0;
  display: grid;
  grid-template-columns: max-content 1fr;
  gap: 4px 12px;
  dt {
    font-weight: 600;
  }
  dd {
    margin: 0;
  }
`;
const Steps = styled.fieldset`
  border: none;
  margin: 0;
  padding: 0;
  display: flex;
  gap: 16px;
  flex-wrap: wrap;
  legend {
    font-weight: 600;
    margin-bottom: 8px;
  }
  label {
    display: inline-flex;
    gap: 6px;
    align-items: center;
    min-height: 44px;
  }
`;

/** A value typed by an operator stands out; one the engine read, or none, is said quietly. */
const TypedMark = styled(Badge)`
  background: ${theme.colors.errorBg};
  color: ${theme.colors.error};
`;
const Value = styled.dd`
  display: flex;
  flex-wrap: wrap;
  gap: 4px 8px;
  align-items: baseline;
`;
function Origin({ origin }: { origin: FieldOrigin }) {
  return origin === 'typed' ? (
    <TypedMark>{caseCopy.origins.typed}</TypedMark>
  ) : (
    <Muted as="span">{caseCopy.origins[origin]}</Muted>
  );
}

/** One image of the case (an object URL), or a note that the case holds none. */
function Evidence({
  images,
  image,
  card = false,
}: {
  images: Partial<Record<EvidenceImage, string>>;
  image: EvidenceImage;
  card?: boolean;
}) {
  const Box = card ? CardFigure : Figure;
  const url = images[image];
  return (
    <Box>
      {url ? (
        <img src={url} alt={operadorTerms.images[image]} />
      ) : (
        <div>{caseCopy.missingImage}</div>
      )}
      <figcaption>{operadorTerms.images[image]}</figcaption>
    </Box>
  );
}

/** The case an operator works: evidence, fields, the engine's reasons, the decision. */
export function CaseScreen() {
  const view = CaseActor.useSelector(selectCase);
  const { send } = CaseActor.useActorRef();
  const d = view.detail;
  const message = errorText(view.error, operador.errors);
  if (!d || view.status === 'loading' || view.status === 'closed') {
    return (
      <Stack>
        <Heading focusOnMount>{caseCopy.title(operadorTerms.kinds.review)}</Heading>
        {view.status === 'failed' ? (
          <>
            {message ? <ErrorBanner message={message} /> : null}
            <Button type="button" onClick={() => send({ type: 'case.retry' })}>
              {caseCopy.retry}
            </Button>
            <Button type="button" $variant="secondary" onClick={() => send({ type: 'case.close' })}>
              {caseCopy.backToQueue}
            </Button>
          </>
        ) : (
          <Busy>{view.status === 'closed' ? caseCopy.closed : caseCopy.loading}</Busy>
        )}
      </Stack>
    );
  }
  if (view.status === 'decided' && view.outcome) {
    return (
      <Stack>
        <Heading focusOnMount>{caseCopy.title(operadorTerms.kinds[d.kind])}</Heading>
        <ErrorBanner tone="info" message={caseCopy.outcomes[view.outcome]} />
        <Button type="button" onClick={() => send({ type: 'case.close' })}>
          {caseCopy.backToQueue}
        </Button>
      </Stack>
    );
  }
  const working = view.status === 'deciding' || view.status === 'releasing';
  return (
    <Stack>
      <Heading focusOnMount>{caseCopy.title(operadorTerms.kinds[d.kind])}</Heading>
      <section aria-label={caseCopy.summary}>
        <Stack $gap={6}>
          <Summary>
            <dt>{caseCopy.trigger}</dt>
            <dd>{operadorTerms.triggers[d.trigger]}</dd>
            <dt>{caseCopy.step}</dt>
            <dd>{operadorTerms.steps[d.step]}</dd>
            <dt>{caseCopy.openedAt}</dt>
            <dd>{formatDateTime(d.openedAt)}</dd>
            {d.expiresAt ? (
              <>
                <dt>{caseCopy.expiresAt}</dt>
                <dd>{formatDateTime(d.expiresAt)}</dd>
              </>
            ) : null}
            <dt>{caseCopy.similarity}</dt>
            <dd>
              {view.similarityPercent === null
                ? caseCopy.notMeasured
                : caseCopy.similarityValue(view.similarityPercent, view.thresholdPercent)}
            </dd>
          </Summary>
          {d.needsSupervisor ? (
            <p>
              <Badge>{caseCopy.needsSupervisor}</Badge> {caseCopy.approvals(d.approvals.length)}
            </p>
          ) : null}
          {!view.canDecide ? <Muted>{caseCopy.readOnly}</Muted> : null}
        </Stack>
      </section>
      {message ? <ErrorBanner message={message} /> : null}

      <H2>{caseCopy.faces}</H2>
      <Pair>
        <Evidence images={view.images} image={d.kind === 'centro' ? 'desk' : 'selfie'} />
        <Evidence images={view.images} image="portrait" />
      </Pair>
      <H2>{caseCopy.documentSides}</H2>
      <Pair>
        <Evidence images={view.images} image="front" card />
        <Evidence images={view.images} image="back" card />
      </Pair>
      <Muted>{caseCopy.attempts(d.attempts.liveness, d.attempts.scans)}</Muted>
      <H2 id="engine-reasons">{caseCopy.reasons}</H2>
      {d.engineReasons.length ? (
        <ul aria-labelledby="engine-reasons">
          {d.engineReasons.map((r, i) => (
            <li key={`${r}-${i}`}>{reasonText(r)}</li>
          ))}
        </ul>
      ) : (
        <Muted>{caseCopy.noReasons}</Muted>
      )}

      {d.patientClaim ? (
        <section aria-labelledby="patient-claim">
          <H2 id="patient-claim">{caseCopy.patientClaimTitle}</H2>
          <p>
            {caseCopy.patientClaim(operadorTerms.fields[d.patientClaim.field], d.patientClaim.says)}
          </p>
        </section>
      ) : null}
      <H2>{caseCopy.fields}</H2>
      <Fields>
        {CORRECTABLE_FIELDS.map((field) => (
          <div key={field} style={{ display: 'contents' }}>
            <dt>{operadorTerms.fields[field]}</dt>
            <Value>
              {d.fields[field] ? <span>{d.fields[field]}</span> : null}
              <Origin origin={d.fieldOrigins[field]} />
            </Value>
            <dd>
              {view.canDecide && view.panel === 'none' && !working ? (
                <Button
                  type="button"
                  $variant="secondary"
                  aria-label={caseCopy.correctField(operadorTerms.fields[field])}
                  onClick={() => send({ type: 'field.edit', field })}
                >
                  {caseCopy.correct}
                </Button>
              ) : null}
            </dd>
          </div>
        ))}
      </Fields>
      {d.corrections.length ? (
        <>
          <H2>{caseCopy.corrections}</H2>
          <ul>
            {d.corrections.map((c) => (
              <li key={`${c.field}-${c.at}`}>
                {caseCopy.correctionLine(
                  operadorTerms.fields[c.field as keyof typeof operadorTerms.fields] ?? c.field,
                  c.from,
                  c.to,
                  c.reason,
                  c.operator,
                )}
              </li>
            ))}
          </ul>
        </>
      ) : null}

      <CasePanel />
      {working ? (
        <Busy>{view.status === 'deciding' ? caseCopy.deciding : caseCopy.releasing}</Busy>
      ) : null}
      {view.panel === 'none' && !working ? <CaseActions /> : null}
    </Stack>
  );
}

/** The decision's buttons (only for the operator who holds the case). */
function CaseActions() {
  const view = CaseActor.useSelector(selectCase);
  const desk = CaseActor.useSelector(selectDesk);
  const { send } = CaseActor.useActorRef();
  const d = view.detail;
  const remoteBlocked = view.needsCard || view.needsSelfie;
  return (
    <section aria-label={caseCopy.actions}>
      <Stack>
        {d?.kind === 'centro' && desk.match ? <DeskMatch /> : null}
        {view.needsDeskPhoto ? (
          <Muted id="needs-desk-photo">{caseCopy.needsDeskPhoto}</Muted>
        ) : null}
        {view.needsCard ? <Muted id="needs-card">{caseCopy.needsCard}</Muted> : null}
        {view.needsSelfie ? <Muted id="needs-selfie">{caseCopy.needsSelfie}</Muted> : null}
        {view.canDecide && view.needsSecondApproval && !view.needsCard ? (
          <Muted>{caseCopy.needsSecondApproval}</Muted>
        ) : null}
        {view.canDecide ? (
          <Actions>
            {d?.kind === 'centro' ? (
              <Button type="button" onClick={() => send({ type: 'desk.start' })}>
                {caseCopy.desk.start}
              </Button>
            ) : null}
            <Button
              type="button"
              disabled={!view.canApprove}
              // Not approvable at a distance: 'Pedir que repita' is the way on, not 'Aprobar'.
              $variant={remoteBlocked ? 'secondary' : 'primary'}
              aria-describedby={
                view.needsCard
                  ? 'needs-card'
                  : view.needsSelfie
                    ? 'needs-selfie'
                    : view.needsDeskPhoto
                      ? 'needs-desk-photo'
                      : undefined
              }
              onClick={() => send({ type: 'approve.start' })}
            >
              {caseCopy.approve}
            </Button>
            <Button
              type="button"
              $variant="secondary"
              onClick={() => send({ type: 'reject.start' })}
            >
              {caseCopy.reject}
            </Button>
            <Button
              type="button"
              $variant={remoteBlocked ? 'primary' : 'secondary'}
              onClick={() => send({ type: 'repeat.start' })}
            >
              {caseCopy.repeat}
            </Button>
            <Button
              type="button"
              $variant="secondary"
              onClick={() => send({ type: 'case.release' })}
            >
              {caseCopy.release}
            </Button>
          </Actions>
        ) : null}
        <Button type="button" $variant="secondary" onClick={() => send({ type: 'case.close' })}>
          {caseCopy.backToQueue}
        </Button>
      </Stack>
    </section>
  );
}

/** The desk photo's match: a signal beside the numbers, never a verdict. */
function DeskMatch() {
  const { match } = CaseActor.useSelector(selectDesk);
  if (!match) return null;
  return (
    <ErrorBanner
      tone="info"
      message={[
        `${caseCopy.desk.matchTitle}: ${
          match.similarityPercent === null
            ? caseCopy.desk.noPortrait
            : caseCopy.desk.matchValue(match.similarityPercent, match.thresholdPercent)
        }`,
        match.similarityPercent === null
          ? ''
          : match.above
            ? caseCopy.desk.matchAbove
            : caseCopy.desk.matchBelow,
        caseCopy.desk.signal,
      ]
        .filter(Boolean)
        .join(' ')}
    />
  );
}

/** The open panel: a correction, the approval's confirmation, a rejection, a repeat, the desk. */
function CasePanel() {
  const { panel } = CaseActor.useSelector(selectCase);
  switch (panel) {
    case 'correcting':
      return <CorrectionPanel />;
    case 'confirmingApproval':
      return <ApprovePanel />;
    case 'rejecting':
      return <RejectPanel />;
    case 'repeating':
      return <RepeatPanel />;
    case 'desk':
      return <DeskPanel />;
    case 'uploading':
      return <Busy>{caseCopy.desk.uploading}</Busy>;
    default:
      return null;
  }
}

/** The approval's confirmation: which version of the case, and which fields nobody read. */
function ApprovePanel() {
  const { version, typedFields } = CaseActor.useSelector(selectCase);
  const { send } = CaseActor.useActorRef();
  return (
    <Panel
      id="approve-title"
      title={caseCopy.approveConfirm.title}
      onCancel={() => send({ type: 'action.cancel' })}
    >
      <Muted>{caseCopy.approveConfirm.body}</Muted>
      {typedFields.length ? (
        <p>
          <TypedMark>{caseCopy.origins.typed}</TypedMark>{' '}
          {caseCopy.approveConfirm.typed(
            typedFields.map((f) => operadorTerms.fields[f].toLowerCase()).join(', '),
          )}
        </p>
      ) : null}
      {version ? <Muted>{caseCopy.version(version)}</Muted> : null}
      <Button type="button" onClick={() => send({ type: 'approve.confirm' })}>
        {caseCopy.approveConfirm.confirm}
      </Button>
    </Panel>
  );
}

function RejectPanel() {
  const { rejection, canConfirm } = CaseActor.useSelector(selectRejection);
  const { send } = CaseActor.useActorRef();
  return (
    <Panel
      id="reject-title"
      title={caseCopy.rejectForm.title}
      onCancel={() => send({ type: 'action.cancel' })}
    >
      <SelectField
        label={caseCopy.rejectForm.reason}
        value={rejection.reason ?? ''}
        placeholder={caseCopy.rejectForm.placeholder}
        options={REJECT_REASONS.map((r) => ({ value: r, label: operadorTerms.rejectReasons[r] }))}
        onValueChange={(value) =>
          send({ type: 'reject.change', reason: value ? (value as RejectReason) : null })
        }
      />
      <TextField
        label={caseCopy.rejectForm.note}
        value={rejection.note}
        maxLength={NOTE_MAX}
        onValueChange={(note) => send({ type: 'reject.change', note })}
      />
      <Button type="button" disabled={!canConfirm} onClick={() => send({ type: 'reject.confirm' })}>
        {caseCopy.rejectForm.confirm}
      </Button>
    </Panel>
  );
}

function RepeatPanel() {
  const { step, canConfirm } = CaseActor.useSelector(selectRepeat);
  const { send } = CaseActor.useActorRef();
  return (
    <Panel
      id="repeat-title"
      title={caseCopy.repeatForm.title}
      onCancel={() => send({ type: 'action.cancel' })}
    >
      <Steps>
        <legend>{caseCopy.repeatForm.legend}</legend>
        {CASE_STEPS.map((s) => (
          <label key={s}>
            <input
              type="radio"
              name="repeat-step"
              value={s}
              checked={step === s}
              onChange={() => send({ type: 'repeat.choose', step: s })}
            />
            {operadorTerms.steps[s]}
          </label>
        ))}
      </Steps>
      <Button type="button" disabled={!canConfirm} onClick={() => send({ type: 'repeat.confirm' })}>
        {caseCopy.repeatForm.confirm}
      </Button>
    </Panel>
  );
}

function DeskPanel() {
  const desk = CaseActor.useSelector(selectDesk);
  const { send } = CaseActor.useActorRef();
  return (
    <Panel
      id="desk-title"
      title={caseCopy.desk.title}
      onCancel={() => send({ type: 'action.cancel' })}
    >
      <Muted>{caseCopy.desk.intro}</Muted>
      <CameraView stream={desk.stream} label={caseCopy.desk.camera} width={640} height={480} />
      {desk.camera === 'opening' ? <Muted role="status">{caseCopy.desk.opening}</Muted> : null}
      {desk.camera === 'failed' && desk.cameraError ? (
        <>
          <ErrorBanner message={cameraErrors[desk.cameraError]} />
          <Button type="button" onClick={() => send({ type: 'camera.retry' })}>
            {caseCopy.desk.retryCamera}
          </Button>
        </>
      ) : (
        <Button
          type="button"
          disabled={!desk.canCapture}
          onClick={() => send({ type: 'desk.capture' })}
        >
          {desk.camera === 'capturing' ? caseCopy.desk.capturing : caseCopy.desk.capture}
        </Button>
      )}
    </Panel>
  );
}
