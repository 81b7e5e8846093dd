import { composeStories, setProjectAnnotations } from '@storybook/react-vite';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import preview from '../../.storybook/preview';
import { faceLogin as copy, faceLoginErrors } from '../../src/copy/es.faceLogin';
import { faceLoginInput } from '../../src/flows/face-login/FaceLoginFlow';
import * as stories from '../../stories/face-login.stories';

setProjectAnnotations(preview);
const s = composeStories(stories);

describe('FaceLoginScreen', () => {
  it("asks to enable the camera with the spec's instruction", async () => {
    render(<s.CameraOff />);
    expect(screen.getByRole('heading', { name: copy.title })).toBeInTheDocument();
    expect(screen.getByText('Tocá “Habilitar cámara” para continuar.')).toBeInTheDocument();
    const enable = screen.getByRole('button', { name: 'Habilitar cámara' });
    expect(screen.getByRole('button', { name: 'Start Authentication' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Stop' })).toBeDisabled();
    await userEvent.setup().click(enable);
    expect(screen.queryByRole('button', { name: 'Habilitar cámara' })).toBeNull();
    expect(screen.getByText(copy.cameraStates.opening)).toBeInTheDocument();
  });

  it('manual mode: Start enabled once the camera plays; Stop while validating', () => {
    const { unmount } = render(<s.ManualReady />);
    expect(screen.getByRole('button', { name: 'Start Authentication' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Stop' })).toBeDisabled();
    expect(screen.getByRole('radio', { name: copy.modes.manual })).toBeChecked();
    unmount();
    render(<s.ManualPolling />);
    expect(screen.getByRole('button', { name: 'Start Authentication' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Stop' })).toBeEnabled();
  });

  it('the status panel shows camera, session, profile, interval and state', () => {
    render(<s.ManualPolling />);
    const panel = screen.getByRole('region', { name: copy.statusTitle });
    expect(within(panel).getByText(copy.cameraStates.live)).toBeInTheDocument();
    expect(within(panel).getByText('5f1c2a9e-8d3b-4c7a-9e21-0b6d4f3a7c18')).toBeInTheDocument();
    expect(within(panel).getByText('kiosk')).toBeInTheDocument();
    expect(within(panel).getByText('300 ms')).toBeInTheDocument();
    expect(within(panel).getByText(copy.authStates.polling)).toBeInTheDocument();
  });

  it("the feedback list hides 'frame duplicado' lines", () => {
    render(<s.ManualPolling />);
    const list = screen.getByRole('region', { name: copy.feedbackTitle });
    expect(within(list).getByText('Parpadeá despacio (0 de 1).')).toBeInTheDocument();
    expect(within(list).queryByText(/frame duplicado/)).toBeNull();
  });

  it('a success shows name, document number, confidence and the threshold used', () => {
    render(<s.ManualRecognised />);
    const box = screen.getByRole('region', { name: copy.resultTitle });
    expect(within(box).getByText('MARÍA JOSÉ GONZÁLEZ BENÍTEZ')).toBeInTheDocument();
    expect(within(box).getByText('1234567')).toBeInTheDocument();
    expect(within(box).getByText('0.91')).toBeInTheDocument();
    expect(within(box).getByText('0.70')).toBeInTheDocument();
  });

  it("a failure shows the detail, 'No reconocido'", () => {
    render(<s.ManualNotRecognised />);
    const box = screen.getByRole('region', { name: copy.resultTitle });
    expect(within(box).getByText('No reconocido')).toBeInTheDocument();
  });

  it('a device that is not activated: patients read whom to tell, never a shell command (issue 29 item 17)', () => {
    const kiosk = render(<s.KioskBlocked />);
    expect(screen.getByRole('status', { name: copy.kiosk.statusLabel })).toHaveTextContent(
      'Este equipo no está habilitado. Avisá al personal.',
    );
    expect(screen.queryByRole('alert')).toBeNull();
    expect(kiosk.container.textContent).not.toMatch(/npm|kiosk --/);
    kiosk.unmount();
    const manual = render(<s.ManualDeviceNotActivated />);
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Este equipo no está habilitado. Avisá al personal.',
    );
    expect(screen.getByRole('region', { name: copy.deviceHelpTitle })).toBeInTheDocument();
    expect(manual.container.textContent).not.toMatch(/npm|kiosk --/);
  });

  it('errors and camera errors are alerts in Spanish', () => {
    const { unmount } = render(<s.ManualFailed />);
    expect(screen.getByRole('alert')).toHaveTextContent(faceLoginErrors.frameFailed);
    unmount();
    render(<s.CameraFailed />);
    expect(screen.getByRole('alert')).toHaveTextContent('No diste permiso para usar la cámara');
    expect(screen.getByRole('button', { name: 'Reintentar' })).toBeEnabled();
  });

  it('device activation notices', () => {
    const { unmount } = render(<s.DeviceActivated />);
    expect(screen.getByText('Dispositivo habilitado: Recepción central.')).toBeInTheDocument();
    unmount();
    render(<s.DeviceActivationFailed />);
    expect(screen.getByRole('alert')).toHaveTextContent('enlace de activación');
  });

  it('the mirror switch and the kiosk mode send events (kiosk mode is the patient screen)', async () => {
    render(<s.ManualReady />);
    const user = userEvent.setup();
    const mirror = screen.getByRole('checkbox', { name: copy.mirror });
    expect(mirror).toBeChecked();
    await user.click(mirror);
    expect(mirror).not.toBeChecked();
    await user.click(screen.getByRole('radio', { name: copy.modes.kiosk }));
    expect(screen.getByRole('status', { name: copy.kiosk.statusLabel })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: copy.statusTitle })).toBeNull();
  });
});

describe("the kiosk's patient screen (/face-login?modo=kiosco)", () => {
  /** Nothing a passer-by should read: diagnostic labels and values, the full name and number. */
  const diagnostic = [
    copy.statusTitle,
    copy.statusLabels.session,
    copy.statusLabels.profile,
    copy.statusLabels.interval,
    copy.resultLabels.confidence,
    copy.resultLabels.threshold,
    '5f1c2a9e-8d3b-4c7a-9e21-0b6d4f3a7c18',
    '300 ms',
    '0.91',
    '0.70',
    'GONZÁLEZ',
    '1234567',
    '1.234.567',
  ];

  it('greets with the given names only and the last three digits of the document, large and first', () => {
    const { container } = render(<s.KioskCooldownRecognised />);
    const moment = screen.getByRole('status', { name: copy.kiosk.statusLabel });
    expect(moment).toHaveTextContent('¡Hola, María José!');
    expect(moment).toHaveTextContent('Documento terminado en 567');
    for (const text of diagnostic) expect(container.textContent).not.toContain(text);
    expect(screen.queryByText('kiosk')).toBeNull();
    // The result comes before the camera: above the fold on a phone.
    const video = screen.getByLabelText(/cámara/i, { selector: 'video' });
    expect(moment.compareDocumentPosition(video) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(screen.queryByRole('radio')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Start Authentication' })).toBeNull();
  });

  it("after a time-up, 'Volvé a iniciar la validación' comes with a button that does it (issue 29 item 17)", async () => {
    render(<s.KioskTimedOut />);
    const moment = screen.getByRole('status', { name: copy.kiosk.statusLabel });
    expect(moment).toHaveTextContent('Se terminó el tiempo. Volvé a iniciar la validación.');
    const restart = within(moment).getByRole('button', { name: copy.kiosk.restart });
    await userEvent.setup().click(restart);
    expect(screen.queryByRole('button', { name: copy.kiosk.restart })).toBeNull();
  });

  it.each([
    [s.KioskCooldownNotRecognised, 'No reconocido'],
    [s.KioskPolling, 'Parpadeá despacio (0 de 1).'],
    [s.KioskWaiting, copy.kiosk.moments.preparing],
    [s.KioskRetrying, copy.kiosk.moments.paused],
  ])('says what happens in words, without diagnostics (%#)', (Story, text) => {
    const { container } = render(<Story />);
    expect(screen.getByRole('status', { name: copy.kiosk.statusLabel })).toHaveTextContent(text);
    for (const t of diagnostic) expect(container.textContent).not.toContain(t);
  });
});

describe('faceLoginInput (the address read once)', () => {
  it('?modo=kiosco boots a kiosk; the activation token is the one the address gave', () => {
    expect(faceLoginInput({ search: '?modo=kiosco' }, 'abc')).toEqual({
      mode: 'kiosk',
      activationToken: 'abc',
    });
    expect(faceLoginInput({ search: '' }, null)).toEqual({
      mode: 'manual',
      activationToken: null,
    });
  });
});
