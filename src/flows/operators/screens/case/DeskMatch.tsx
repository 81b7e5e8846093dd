import { selectDesk } from '../../../../../machines/operators/operators.selectors';
import { caseCopy } from '../../../../copy/es.operators';
import { ErrorBanner } from '../../../../components/ErrorBanner';
import { CaseActor } from '../../operators.context';

/** The desk photo's match: a signal beside the numbers, never a verdict. */
export function DeskMatch() {
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
