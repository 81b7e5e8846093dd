import { selectCase } from '../../../../machines/operators/operators.selectors';
import { errorText } from '../../../copy/es';
import { caseCopy, operador, operadorTerms } from '../../../copy/es.operators';
import { Button } from '../../../components/Button';
import { ErrorBanner } from '../../../components/ErrorBanner';
import { Heading } from '../../../components/Heading';
import { Stack } from '../../../components/Page';
import { CaseActor } from '../operators.context';
import { CaseActions } from './case/CaseActions';
import { CaseEvidence } from './case/CaseEvidence';
import { CaseFields } from './case/CaseFields';
import { CasePanel } from './case/CasePanel';
import { CaseSummary } from './case/CaseSummary';
import { CorrectionsLog } from './case/CorrectionsLog';
import { DuplicateRecord } from './case/DuplicateRecord';
import { EngineReasons } from './case/EngineReasons';
import { PatientClaim } from './case/PatientClaim';
import { Busy } from './parts';

/**
 * The case an operator works: its summary, the evidence, the engine's reasons, the fields, the
 * open panel and the decision (each panel a file of its own in case/).
 */
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
        <ErrorBanner
          tone="info"
          message={
            d.kind === 'correction'
              ? caseCopy.correctionOutcomes[view.outcome]
              : caseCopy.outcomes[view.outcome]
          }
        />
        <Button type="button" onClick={() => send({ type: 'case.close' })}>
          {caseCopy.backToQueue}
        </Button>
      </Stack>
    );
  }
  const working = view.status === 'deciding' || view.status === 'releasing';
  const idle = view.panel === 'none' && !working;
  return (
    <Stack>
      <Heading focusOnMount>{caseCopy.title(operadorTerms.kinds[d.kind])}</Heading>
      <CaseSummary />
      {message ? <ErrorBanner message={message} /> : null}

      <DuplicateRecord />
      <CaseEvidence />
      <EngineReasons />

      <PatientClaim />
      <CaseFields correctable={view.canDecide && idle} />
      <CorrectionsLog />

      <CasePanel />
      {working ? (
        <Busy>{view.status === 'deciding' ? caseCopy.deciding : caseCopy.releasing}</Busy>
      ) : null}
      {idle ? <CaseActions /> : null}
    </Stack>
  );
}
