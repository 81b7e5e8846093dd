import { selectCase } from '../../../../../machines/operators/operators.selectors';
import { caseCopy, operadorTerms } from '../../../../copy/es.operators';
import { CaseActor } from '../../operators.context';
import { H2 } from '../parts';

/** 'Hay un dato mal': the field the patient says is wrong and what it should say, as theirs. */
export function PatientClaim() {
  const claim = CaseActor.useSelector(selectCase).detail?.patientClaim;
  if (!claim) return null;
  return (
    <section aria-labelledby="patient-claim">
      <H2 id="patient-claim">{caseCopy.patientClaimTitle}</H2>
      <p>{caseCopy.patientClaim(operadorTerms.fields[claim.field], claim.says)}</p>
    </section>
  );
}
