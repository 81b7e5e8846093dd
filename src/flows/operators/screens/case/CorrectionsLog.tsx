import { selectCase } from '../../../../../machines/operators/operators.selectors';
import { caseCopy, operadorTerms } from '../../../../copy/es.operators';
import { CaseActor } from '../../operators.context';
import { H2 } from '../parts';

/** The corrections already made to the case: which field, from what to what, why and by whom. */
export function CorrectionsLog() {
  const corrections = CaseActor.useSelector(selectCase).detail?.corrections;
  if (!corrections?.length) return null;
  return (
    <>
      <H2>{caseCopy.corrections}</H2>
      <ul>
        {corrections.map((c) => (
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
  );
}
