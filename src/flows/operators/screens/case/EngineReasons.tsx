import { selectCase } from '../../../../../machines/operators/operators.selectors';
import { caseCopy, reasonText } from '../../../../copy/es.operators';
import { Muted } from '../../../../components/Page';
import { CaseActor } from '../../operators.context';
import { H2 } from '../parts';

/** Why the engine sent the case to a person, in its own words, or that it gave no reason. */
export function EngineReasons() {
  const { detail: d } = CaseActor.useSelector(selectCase);
  if (!d) return null;
  return (
    <>
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
    </>
  );
}
