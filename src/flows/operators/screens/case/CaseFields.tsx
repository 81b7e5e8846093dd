import styled from 'styled-components';
import { selectCase } from '../../../../../machines/operators/operators.selectors';
import {
  CORRECTABLE_FIELDS,
  type FieldOrigin,
} from '../../../../../machines/operators/operators.types';
import { caseCopy, operadorTerms } from '../../../../copy/es.operators';
import { Button } from '../../../../components/Button';
import { Muted } from '../../../../components/Page';
import { CaseActor } from '../../operators.context';
import { H2, TypedMark } from '../parts';

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
const Value = styled.dd`
  display: flex;
  flex-wrap: wrap;
  gap: 4px 8px;
  align-items: baseline;
`;

/** A value typed by an operator stands out; one the engine read, or none, is said quietly. */
function Origin({ origin }: { origin: FieldOrigin }) {
  return origin === 'typed' ? (
    <TypedMark>{caseCopy.origins.typed}</TypedMark>
  ) : (
    <Muted as="span">{caseCopy.origins[origin]}</Muted>
  );
}

/**
 * The case's fields, each with where its value came from (typed by an operator, read by the
 * engine, or none), and 'Corregir' beside it while the operator may correct.
 */
export function CaseFields({ correctable }: { correctable: boolean }) {
  const d = CaseActor.useSelector(selectCase).detail;
  const { send } = CaseActor.useActorRef();
  if (!d) return null;
  return (
    <>
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
              {correctable ? (
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
    </>
  );
}
