import { selectCase } from '../../../../../machines/operators/operators.selectors';
import { formatDateTime } from '../../../../../machines/shared/format';
import { caseCopy, operadorTerms } from '../../../../copy/es.operators';
import { Muted, Stack } from '../../../../components/Page';
import { CaseActor } from '../../operators.context';
import { Badge, Terms } from '../parts';

/** The case's header: why it was opened, when, the faces' similarity, who may decide it. */
export function CaseSummary() {
  const {
    detail: d,
    similarityPercent,
    thresholdPercent,
    canDecide,
  } = CaseActor.useSelector(selectCase);
  if (!d) return null;
  return (
    <section aria-label={caseCopy.summary}>
      <Stack $gap={6}>
        <Terms>
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
            {similarityPercent === null
              ? caseCopy.notMeasured
              : caseCopy.similarityValue(similarityPercent, thresholdPercent)}
          </dd>
        </Terms>
        {d.needsSupervisor ? (
          <p>
            <Badge>{caseCopy.needsSupervisor}</Badge> {caseCopy.approvals(d.approvals.length)}
          </p>
        ) : null}
        {!canDecide ? <Muted>{caseCopy.readOnly}</Muted> : null}
      </Stack>
    </section>
  );
}
