import { selectCase } from '../../../../../machines/operators/operators.selectors';
import { formatDateTime } from '../../../../../machines/shared/format';
import { caseCopy } from '../../../../copy/es.operators';
import { Muted, Stack } from '../../../../components/Page';
import { CaseActor } from '../../operators.context';
import { H2, Terms } from '../parts';

/**
 * A 'posible duplicado' (issue 44 item 3): the patient already registered whose face this
 * registration's is, beside the new registration's evidence, and how the supervisor decides.
 */
export function DuplicateRecord() {
  const dup = CaseActor.useSelector(selectCase).duplicate;
  if (!dup) return null;
  const c = caseCopy.duplicate;
  return (
    <section aria-labelledby="duplicate-record">
      <Stack $gap={6}>
        <H2 id="duplicate-record">{c.title}</H2>
        <p>{c.intro}</p>
        <Terms>
          <dt>{c.documento}</dt>
          <dd>{dup.documento || c.unknown}</dd>
          <dt>{c.nombre}</dt>
          <dd>{dup.nombre || c.unknown}</dd>
          <dt>{c.registeredAt}</dt>
          <dd>{dup.registeredAt ? formatDateTime(dup.registeredAt) : c.unknown}</dd>
          <dt>{c.similarity}</dt>
          <dd>{c.similarityValue(dup.similarityPercent, dup.thresholdPercent)}</dd>
        </Terms>
        <Muted>{c.howToDecide}</Muted>
      </Stack>
    </section>
  );
}
