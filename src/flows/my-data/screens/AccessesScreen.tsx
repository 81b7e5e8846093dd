import { selectAccesses } from '../../../../machines/my-data/my-data.selectors';
import { Muted } from '../../../components/Page';
import { myData as copy } from '../../../copy/es.myData';
import { MyDataActor } from '../my-data.context';
import { MyDataFrame } from './MyDataFrame';
import { Item, List, Note } from './my-data.styles';

const PARTS: Record<string, string> = copy.parts;

/** Item 3: every look at the patient's case and every way into the account, newest first. */
export function AccessesScreen() {
  const accesses = MyDataActor.useSelector(selectAccesses);
  return (
    <MyDataFrame>
      <Muted>{copy.accessesIntro}</Muted>
      {accesses.length === 0 ? (
        <p>{copy.accessesNone}</p>
      ) : (
        <List aria-label={copy.accessesLabel}>
          {accesses.map((a, i) => (
            <Item key={i}>
              <strong>
                {(a.result === 'failed' && copy.failedKinds[a.kind]) || copy.kinds[a.kind]}
              </strong>
              <time dateTime={a.at}>{copy.moment(a.at)}</time>
              {a.result === 'failed' ? <Note>{copy.failedAttempt}</Note> : null}
              {a.result === 'locked' ? <Note>{copy.lockedAttempt}</Note> : null}
              {a.role ? <Note>{copy.role(copy.roles[a.role])}</Note> : null}
              {a.centre ? <Note>{copy.centre(a.centre)}</Note> : null}
              {a.what ? <Note>{copy.image(PARTS[a.what] ?? a.what)}</Note> : null}
              {a.device ? <Note>{copy.device(a.device)}</Note> : null}
            </Item>
          ))}
        </List>
      )}
    </MyDataFrame>
  );
}
