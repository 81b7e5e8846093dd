import { selectCase } from '../../../../../machines/operators/operators.selectors';
import { caseCopy } from '../../../../copy/es.operators';
import { CaseActor } from '../../operators.context';
import { Busy } from '../parts';
import { ApprovePanel } from './ApprovePanel';
import { CorrectionPanel } from './CorrectionPanel';
import { DeskPanel } from './DeskPanel';
import { RejectPanel } from './RejectPanel';
import { RepeatPanel } from './RepeatPanel';

/** The open panel: a correction, the approval's confirmation, a rejection, a repeat, the desk. */
export function CasePanel() {
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
