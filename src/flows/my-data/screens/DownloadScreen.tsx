import { useSelector } from '@xstate/react';
import styled from 'styled-components';
import type { ActorRefFrom } from 'xstate';
import type { DownloadMachine } from '../../../../machines/my-data/download.machine';
import {
  selectDownloadActor,
  selectDownloadView,
} from '../../../../machines/my-data/download.selectors';
import { AppLinkButton, Button } from '../../../components/Button';
import { ErrorBanner } from '../../../components/ErrorBanner';
import { Muted } from '../../../components/Page';
import { myData } from '../../../copy/es.myData';
import { myDataDownload as copy } from '../../../copy/es.myDataDownload';
import { theme } from '../../../theme/theme';
import { MyDataActor } from '../my-data.context';
import { MyDataFrame } from './MyDataFrame';

/** The file's link, as a button: a plain download (no script, no page left). */
const FileLink = styled.a`
  display: inline-flex;
  align-items: center;
  justify-content: center;
  min-height: ${theme.layout.fieldHeight}px;
  padding: 0 20px;
  border-radius: ${theme.radius}px;
  border: 2px solid ${theme.colors.primary};
  background: ${theme.colors.primary};
  color: ${theme.colors.primaryText};
  font-weight: 600;
  text-decoration: none;
`;

/** Item 2: one file with everything the service keeps, through a link that expires. */
export function DownloadScreen() {
  const actor = MyDataActor.useSelector(selectDownloadActor);
  return <MyDataFrame>{actor ? <DownloadSection actor={actor} /> : null}</MyDataFrame>;
}

function DownloadSection({ actor }: { actor: ActorRefFrom<DownloadMachine> }) {
  const view = useSelector(actor, selectDownloadView);
  const request = () => actor.send({ type: 'download.request' });
  return (
    <>
      <Muted>{copy.intro}</Muted>
      <p>{copy.format}</p>
      <p>{copy.private}</p>
      {view.screen === 'asking' ? (
        <Button type="button" onClick={request}>
          {copy.request}
        </Button>
      ) : null}
      {view.screen === 'building' ? <p role="status">{copy.building}</p> : null}
      {view.screen === 'ready' && view.link ? (
        <>
          <p role="status">{copy.ready}</p>
          <FileLink href={view.link.href} download={view.link.fileName}>
            {copy.link(view.link.fileName, view.link.size)}
          </FileLink>
          <Muted>{copy.expires(view.link.expiresAt)}</Muted>
        </>
      ) : null}
      {view.screen === 'expired' ? (
        <>
          <p role="status">{copy.expired}</p>
          <Button type="button" onClick={request}>
            {copy.again}
          </Button>
        </>
      ) : null}
      {view.screen === 'failed' && view.sessionEnded ? (
        <>
          <ErrorBanner message={myData.sessionEnded} />
          <AppLinkButton to="/login">{myData.login}</AppLinkButton>
        </>
      ) : null}
      {view.screen === 'failed' && !view.sessionEnded ? (
        <>
          <ErrorBanner message={copy.failed} />
          <Button type="button" onClick={() => actor.send({ type: 'download.retry' })}>
            {copy.retry}
          </Button>
        </>
      ) : null}
    </>
  );
}
