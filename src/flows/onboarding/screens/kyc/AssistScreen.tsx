import { useSelector } from '@xstate/react';
import type { ReactNode } from 'react';
import styled from 'styled-components';
import type { ActorRefFrom } from 'xstate';
import type { AssistMachine } from '../../../../../machines/kyc/kyc.assist.machine';
import {
  selectAssistActor,
  selectAssistView,
} from '../../../../../machines/kyc/kyc.assist.selectors';
import type { AssistEvent } from '../../../../../machines/kyc/kyc.assist.types';
import type { KycMachine } from '../../../../../machines/kyc/kyc.machine';
import { Button } from '../../../../components/Button';
import { ErrorBanner } from '../../../../components/ErrorBanner';
import { Muted } from '../../../../components/Page';
import { SelectField } from '../../../../components/SelectField';
import { Spinner } from '../../../../components/Spinner';
import { assist as copy, assistErrors, errorText, rejectReasons } from '../../../../copy/es.assist';
import { kyc as kycCopy } from '../../../../copy/es.kyc';
import { theme } from '../../../../theme/theme';
import { Actions, Intro, TipsTitle } from '../shared.styles';
import { KycLayout } from './KycLayout';

/** The actor the way out's buttons talk to: the `assist` child, or the KYC machine on a step. */
type Assist = { send: (event: AssistEvent) => void };
type View = ReturnType<typeof selectAssistView>;
type HealthCentre = View['centres']['list'][number];

const Code = styled.p`
  margin: 0;
  text-align: center;
  font-size: 2.25rem;
  font-weight: 700;
  letter-spacing: 0.12em;
  font-variant-numeric: tabular-nums;
  color: ${theme.colors.text};
`;

const CodeLabel = styled.p`
  margin: 0;
  text-align: center;
  font-weight: 600;
`;

const Centres = styled.ul`
  margin: 0;
  padding: 0;
  list-style: none;
  display: flex;
  flex-direction: column;
  gap: 12px;
`;

const Centre = styled.li`
  border: 1px solid ${theme.colors.border};
  border-radius: ${theme.radius}px;
  padding: 12px;
  & > p {
    margin: 0;
  }
`;

/** 'Que lo revise una persona' and 'Verificar en un centro de salud', where they apply. */
export function AssistChoices({
  actor,
  view,
}: {
  actor: Assist;
  view: Pick<View, 'canReview' | 'canCentre'>;
}) {
  return (
    <Actions>
      {view.canReview ? (
        <>
          <Button
            type="button"
            onClick={() => actor.send({ type: 'assist.choose', kind: 'review' })}
          >
            {copy.review}
          </Button>
          <Muted>{copy.reviewHint}</Muted>
        </>
      ) : null}
      {view.canCentre ? (
        <>
          <Button
            type="button"
            $variant={view.canReview ? 'secondary' : 'primary'}
            onClick={() => actor.send({ type: 'assist.choose', kind: 'centro' })}
          >
            {copy.centre}
          </Button>
          <Muted>{copy.centreHint}</Muted>
        </>
      ) : null}
    </Actions>
  );
}

/** 'Volver': to the step the patient left, or the case kept. */
function BackButton({ assist }: { assist: Assist }) {
  return (
    <Button type="button" $variant="secondary" onClick={() => assist.send({ type: 'assist.back' })}>
      {copy.back}
    </Button>
  );
}

/**
 * The way out (issue 30) on its child; a moment without it (restored without its child) is a wait.
 */
export function AssistScreen({ kyc }: { kyc: ActorRefFrom<KycMachine> }) {
  const assist = useSelector(kyc, selectAssistActor);
  return assist ? (
    <AssistSteps assist={assist} />
  ) : (
    <KycLayout title={copy.offer.title} busy>
      <Muted role="status">{kycCopy.loading}</Muted>
    </KycLayout>
  );
}

/** The way out's screens: the offer, the case opening, the case by its status. */
export function AssistSteps({ assist }: { assist: ActorRefFrom<AssistMachine> }) {
  const view = useSelector(assist, selectAssistView);
  const error = errorText(view.error, assistErrors);
  switch (view.screen) {
    case 'opening':
      return (
        <KycLayout title={copy.offer.title} busy>
          <Spinner />
          <Muted role="status">{copy.opening}</Muted>
        </KycLayout>
      );
    case 'openFailed':
      return (
        <KycLayout title={copy.openFailedTitle}>
          {error ? <ErrorBanner message={error} /> : null}
          {view.canRetry ? (
            <Button type="button" onClick={() => assist.send({ type: 'assist.retry' })}>
              {copy.retry}
            </Button>
          ) : null}
          <BackButton assist={assist} />
        </KycLayout>
      );
    case 'waiting':
      return (
        <KycLayout title={copy.waiting.title} busy={view.busy} leave={copy.leaveOpenCase}>
          {view.expectedBy ? <Intro>{copy.waiting.expected(view.expectedBy)}</Intro> : null}
          <p>{copy.waiting.sms}</p>
          <p>{copy.waiting.resume}</p>
          {view.busy ? <Muted role="status">{copy.waiting.refreshing}</Muted> : null}
          {error ? <ErrorBanner message={error} /> : null}
          <Button
            type="button"
            disabled={!view.canRefresh}
            onClick={() => assist.send({ type: 'case.refresh' })}
          >
            {copy.waiting.refresh}
          </Button>
          {view.canCentre ? (
            <>
              <Muted>{copy.waiting.switchHint}</Muted>
              <Button
                type="button"
                $variant="secondary"
                onClick={() => assist.send({ type: 'assist.choose', kind: 'centro' })}
              >
                {copy.centre}
              </Button>
            </>
          ) : null}
        </KycLayout>
      );
    case 'centre':
      return <CentreCase assist={assist} view={view} error={error} />;
    case 'rejected':
      return (
        <KycLayout title={copy.rejected.title}>
          <Intro>{copy.rejected.intro}</Intro>
          <ErrorBanner message={rejectReasons[view.rejectReason ?? 'other']} />
          {view.canCentre ? <p>{copy.rejected.centreOffer}</p> : null}
          {error ? <ErrorBanner message={error} /> : null}
          <AssistChoices actor={assist} view={view} />
        </KycLayout>
      );
    case 'expired':
      return (
        <KycLayout title={copy.expired.title}>
          <Intro>{copy.expired.body}</Intro>
          <Actions>
            <Button
              type="button"
              onClick={() => assist.send({ type: 'assist.choose', kind: 'centro' })}
            >
              {copy.expired.newCode}
            </Button>
            <Button
              type="button"
              $variant="secondary"
              onClick={() => assist.send({ type: 'assist.choose', kind: 'review' })}
            >
              {copy.review}
            </Button>
          </Actions>
        </KycLayout>
      );
    case 'decided':
      return (
        <KycLayout title={copy.decided.title}>
          <Intro>{copy.decided.body}</Intro>
        </KycLayout>
      );
    default:
      return (
        <KycLayout title={copy.offer.title}>
          <Intro>{copy.offer.intro}</Intro>
          <AssistChoices actor={assist} view={view} />
          {view.canBack ? <BackButton assist={assist} /> : null}
        </KycLayout>
      );
  }
}

/** One health centre: its name, where it is (`children`), its hours. */
function CentreItem({ centre, children }: { centre: HealthCentre; children: ReactNode }) {
  return (
    <Centre>
      <p>
        <strong>{centre.nombre}</strong>
      </p>
      <p>{children}</p>
      <Muted>{centre.horario}</Muted>
    </Centre>
  );
}

/** The centre code, large, its deadline, and the health centres of a department. */
function CentreCase({ assist, view, error }: { assist: Assist; view: View; error: string | null }) {
  const c = copy.centreCase;
  return (
    <KycLayout title={c.title} busy={view.busy} leave={copy.leaveOpenCase}>
      <Intro>{c.intro}</Intro>
      <CodeLabel id="centre-code-label">{c.codeLabel}</CodeLabel>
      <Code aria-labelledby="centre-code-label">{view.code}</Code>
      {view.expectedBy ? <p>{c.deadline(view.expectedBy)}</p> : null}
      <Muted>{c.sms}</Muted>
      <TipsTitle>{c.centresTitle}</TipsTitle>
      {view.centres.loading ? <Muted role="status">{c.loading}</Muted> : null}
      {error ? <ErrorBanner message={error} /> : null}
      {view.canRetry ? (
        <Button type="button" onClick={() => assist.send({ type: 'assist.retry' })}>
          {copy.retry}
        </Button>
      ) : null}
      {view.centres.departments.length > 0 ? (
        <SelectField
          label={c.departmentLabel}
          value={view.centres.department}
          placeholder={c.departmentPlaceholder}
          options={view.centres.departments.map((d) => ({ value: d, label: d }))}
          onValueChange={(departamento) => assist.send({ type: 'centre.department', departamento })}
        />
      ) : null}
      {view.centres.list.length > 0 ? (
        <Centres aria-label={c.listLabel(view.centres.department)}>
          {view.centres.list.map((centre) => (
            <CentreItem key={`${centre.nombre}-${centre.direccion}`} centre={centre}>
              {c.place(centre.direccion, centre.ciudad)}
            </CentreItem>
          ))}
        </Centres>
      ) : view.centres.nearest.length > 0 ? (
        <>
          <p>{c.noCentre(view.centres.department)}</p>
          <Centres aria-label={c.nearestLabel(view.centres.department)}>
            {view.centres.nearest.map((centre) => (
              <CentreItem key={`${centre.nombre}-${centre.direccion}`} centre={centre}>
                {c.nearPlace(centre.direccion, centre.ciudad, centre.departamento)}
              </CentreItem>
            ))}
          </Centres>
        </>
      ) : view.centres.departments.length > 0 ? (
        <Muted>{c.chooseDepartment}</Muted>
      ) : null}
    </KycLayout>
  );
}
