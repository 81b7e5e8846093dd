import { composeStories, setProjectAnnotations } from '@storybook/react-vite';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import preview from '../../.storybook/preview';
import { faceLogin as copy, faceLoginErrors } from '../../src/copy/es.faceLogin';
import { faceLoginInput } from '../../src/flows/face-login/FaceLoginFlow';
import * as stories from '../../stories/faceLogin.stories';

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
    render(<s.KioskCooldownNotRecognised />);
    const box = screen.getByRole('region', { name: copy.resultTitle });
    expect(within(box).getByText('No reconocido')).toBeInTheDocument();
    expect(screen.getByText(copy.kioskNote)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Start Authentication' })).toBeNull();
  });

  it('explains what to do on a device that is not activated', () => {
    render(<s.KioskBlocked />);
    expect(screen.getByRole('alert')).toHaveTextContent('no está habilitado');
    expect(screen.getByRole('region', { name: copy.deviceHelpTitle })).toHaveTextContent(
      'npm run kiosk -- add',
    );
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

  it('switching the mode and the mirror sends events', async () => {
    render(<s.ManualReady />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('radio', { name: copy.modes.kiosk }));
    expect(screen.getByRole('radio', { name: copy.modes.kiosk })).toBeChecked();
    expect(screen.getByText(copy.kioskNote)).toBeInTheDocument();
    const mirror = screen.getByRole('checkbox', { name: copy.mirror });
    expect(mirror).toBeChecked();
    await user.click(mirror);
    expect(mirror).not.toBeChecked();
  });
});

describe('faceLoginInput (the address read once)', () => {
  it('?modo=kiosco boots a kiosk; the activation token comes from the #fragment', () => {
    expect(faceLoginInput({ search: '?modo=kiosco', hash: '#activar=abc' })).toEqual({
      mode: 'kiosk',
      activationToken: 'abc',
    });
    expect(faceLoginInput({ search: '', hash: '' })).toEqual({
      mode: 'manual',
      activationToken: null,
    });
  });
});
