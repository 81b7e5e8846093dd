import { afterEach, describe, expect, it, vi } from 'vitest';
import { identityParts } from '../../contract/identity';
import { getCentres, postCaseStatus, postOpenCase } from '../../machines/kyc/kyc.assist.api';
import { postScanId } from '../../machines/kyc/kyc.api';
import { assistErrorFrom } from '../../machines/kyc/kyc.assist.actors';

/** The assisted verification's calls (issue 30) and scan-id with one side (a repeat). */

const answer = (body: unknown, status = 200) =>
  vi.fn(
    async (_url: string, _init?: RequestInit) => new Response(JSON.stringify(body), { status }),
  );
afterEach(() => vi.unstubAllGlobals());

const TOKEN = 'R'.repeat(43);
const open = {
  kind: 'review',
  status: 'open',
  trigger: 'patient_choice',
  openedAt: '2026-11-26T13:00:00.000Z',
  expectedBy: '2026-11-28T13:00:00.000Z',
};

describe('scan-id with one side', () => {
  it.each([
    ['front', ['session_id', identityParts.front]],
    ['back', ['session_id', identityParts.back]],
  ] as const)('only the %s: the absent side is not sent', async (side, parts) => {
    const fetch = answer({ success: true, kyc_complete: true });
    vi.stubGlobal('fetch', fetch);
    const photo = new Blob(['x'], { type: 'image/jpeg' });
    await postScanId('sess', side === 'front' ? photo : null, side === 'back' ? photo : null);
    const form = fetch.mock.calls[0]![1]!.body as FormData;
    expect([...form.keys()]).toEqual(parts);
  });
});

describe('the case calls', () => {
  it('opens a case with its registration, kind, trigger and step, and answers the case', async () => {
    const fetch = answer({ success: true, case: open });
    vi.stubGlobal('fetch', fetch);
    const body = {
      registrationToken: TOKEN,
      kind: 'review',
      trigger: 'patient_choice',
      step: 'selfie',
    } as const;
    await expect(postOpenCase(body)).resolves.toEqual(open);
    expect(fetch.mock.calls[0]![0]).toBe('/api/onboarding/registration/case');
    expect(fetch.mock.calls[0]![1]!.method).toBe('POST');
    expect(JSON.parse(fetch.mock.calls[0]![1]!.body as string)).toEqual(body);
  });

  it("reads the case's status (null: none)", async () => {
    const fetch = answer({ success: true, case: null });
    vi.stubGlobal('fetch', fetch);
    await expect(postCaseStatus(TOKEN)).resolves.toBeNull();
    expect(fetch.mock.calls[0]![0]).toBe('/api/onboarding/registration/case/status');
    expect(JSON.parse(fetch.mock.calls[0]![1]!.body as string)).toEqual({
      registrationToken: TOKEN,
    });
  });

  it('loads the centres by GET', async () => {
    const list = [{ departamento: 'Central', centros: [] }];
    const fetch = answer(list);
    vi.stubGlobal('fetch', fetch);
    await expect(getCentres()).resolves.toEqual(list);
    expect(fetch.mock.calls[0]![0]).toBe('/api/onboarding/centros');
    expect(fetch.mock.calls[0]![1]!.method).toBe('GET');
  });

  it('a 409 by its reason code; offline; otherwise the server’s words', async () => {
    vi.stubGlobal(
      'fetch',
      answer({ success: false, message: 'Tomado.', reason: 'case_taken' }, 409),
    );
    const taken = await postOpenCase({
      registrationToken: TOKEN,
      kind: 'centro',
      trigger: 'patient_choice',
      step: 'selfie',
    }).catch((e: unknown) => e);
    expect(assistErrorFrom(taken)).toEqual({ code: 'caseTaken' });
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
    );
    const offline = await postCaseStatus(TOKEN).catch((e: unknown) => e);
    expect(assistErrorFrom(offline)).toEqual({ code: 'network' });
    vi.stubGlobal('fetch', answer({ success: false, message: 'Registro no válido.' }, 400));
    const refused = await postCaseStatus(TOKEN).catch((e: unknown) => e);
    expect(assistErrorFrom(refused)).toEqual({
      code: 'failed',
      serverMessage: 'Registro no válido.',
    });
  });
});
