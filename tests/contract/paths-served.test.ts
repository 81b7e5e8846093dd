import { describe, expect, it } from 'vitest';
import { casesPaths } from '../../contract/cases';
import { operatorPaths } from '../../contract/operators';
import { useTestApp } from '../server/helpers';

/**
 * The browser takes the back office's and the assisted verification's URLs from contract/ (issue
 * 42): each one must be a route the server registered, with the method the machines call it by.
 */
describe('contract paths are the routes the server serves', () => {
  const h = useTestApp();
  const id = '00000000-0000-4000-8000-000000000000';
  const served: [method: 'GET' | 'POST', url: string][] = [
    ['GET', operatorPaths.session],
    ['POST', operatorPaths.logout],
    ['POST', operatorPaths.enrolOptions],
    ['POST', operatorPaths.enrolVerify],
    ['POST', operatorPaths.loginOptions],
    ['POST', operatorPaths.loginVerify],
    ['GET', operatorPaths.queue],
    ['POST', operatorPaths.claim],
    ['POST', operatorPaths.codeLookup],
    ['GET', operatorPaths.case(id)],
    ['GET', operatorPaths.caseImage(id, 'selfie')],
    ['POST', operatorPaths.correction(id)],
    ['POST', operatorPaths.decision(id)],
    ['POST', operatorPaths.release(id)],
    ['POST', operatorPaths.deskPhoto(id)],
    ['POST', casesPaths.openCase],
    ['POST', casesPaths.caseStatus],
    ['GET', casesPaths.centres],
  ];

  it.each(served)('%s %s is registered', (method, url) => {
    expect(
      h.t.app.findRoute({ method, url: url.replace(id, ':id').replace(/selfie$/, ':image') }),
    ).toBeTruthy();
  });

  it('an unknown path is not (the check can fail)', () => {
    expect(h.t.app.findRoute({ method: 'GET', url: `${operatorPaths.queue}/x/nada` })).toBeFalsy();
  });
});
