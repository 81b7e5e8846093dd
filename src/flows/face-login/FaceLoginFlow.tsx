import { FaceLoginPage } from '../../pages/ComingSoonPage';

/** The face-authentication kiosk comes with its own issue; the route and its chunk exist already. */
export default FaceLoginPage;
