import { RecoverPinPage } from '../../pages/ComingSoonPage';

/** PIN recovery comes with its own issue; the route and its code-split chunk exist already. */
export default RecoverPinPage;
