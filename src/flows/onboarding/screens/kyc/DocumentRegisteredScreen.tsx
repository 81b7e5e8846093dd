import { AppLinkButton } from '../../../../components/Button';
import { AppLink } from '../../../../components/Navigation';
import { Muted } from '../../../../components/Page';
import { kyc } from '../../../../copy/es.kyc';
import { Center, Intro } from '../shared.styles';
import { KycLayout } from './KycLayout';

const copy = kyc.documentRegistered;

/**
 * 'Ya tenés una cuenta con esta cédula' (issue 29 item 10): as soon as the card is read, not after
 * 'Finalizar'; log in, recover the PIN, or, when the patient did not create that account, what to
 * do about it.
 */
export function DocumentRegisteredScreen() {
  return (
    <KycLayout title={copy.title}>
      <Intro>{copy.body}</Intro>
      <AppLinkButton to="/login">{copy.login}</AppLinkButton>
      <Center>
        <AppLink to="/recuperar-pin">{copy.forgotPin}</AppLink>
      </Center>
      <Muted>{copy.notYou}</Muted>
    </KycLayout>
  );
}
