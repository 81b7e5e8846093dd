import { assign, sendTo, stopChild } from 'xstate';
import { isPinFromOwnData } from '../../contract/pin';
import { onboardingSetup } from './onboarding.setup';
import {
  childBroke,
  initialOnboardingContext,
  known,
  linkRefusal,
  ownDataOf,
  registerRequestOf,
  resumeTransitions,
} from './onboarding.steps';

/**
 * The onboarding wizard, steps 0 to 5 as the spec numbers them. It knows the order of the steps and
 * what one hands the next, never their fields: each step with fields or calls of its own is a child
 * invoked under the step's state (registrationForm, otp, pinCreation, handoff, linkOpening,
 * pinRenewal, registering; kyc is spawned once its chunk loads). registration (0), verification
 * (1), pinCreation (2), welcome (3), kyc (4) and registering, then complete (5). `patientExists` when
 * send-code or register says so; every back or cancel ends in `home`. Once the mobile is verified the
 * server keeps the registration (the PIN as its hash): verifying it again continues at the first
 * unfinished step, and step 4 can be handed to the phone (`handoff`) through an SMS link the phone
 * opens (`linkOpening`). Its types, children and shared actions: onboarding.setup.ts.
 */
export const onboardingMachine = onboardingSetup.createMachine({
  id: 'onboarding',
  meta: { insight: { flow: 'onboarding' } },
  context: ({ input }) => ({ ...initialOnboardingContext, linkToken: input?.linkToken || null }),
  initial: 'registration',
  // Every back or cancel ends in `home`; a browser holding a registration forgets it on the way.
  on: {
    'flow.back': [
      { guard: ({ context }) => context.registrationToken === null, target: '.home' },
      { target: '.leaving' },
    ],
  },
  states: {
    linkOpening: {
      meta: { insight: { step: 'link', resumesPast: 'pin' } },
      tags: ['busy'],
      invoke: {
        id: 'linkOpening',
        src: 'linkOpening',
        input: ({ context }) => ({ linkToken: known(context.linkToken, 'link token') }),
        onDone: [linkRefusal, ...resumeTransitions],
        onError: '#onboarding.unexpected',
      },
    },
    // Used, expired or not valid: proving the mobile by SMS continues the registration as well.
    linkRefused: {
      meta: { insight: { step: 'link' } },
      tags: ['error'],
      on: {
        'link.restart': {
          target: '#onboarding.registration.ready',
          actions: assign({ linkToken: null, error: null }),
        },
      },
    },
    registration: {
      meta: { insight: { step: 'registration' } },
      // The phone that opened the SMS link continues its registration; anyone else starts here.
      always: { guard: ({ context }) => context.linkToken !== null, target: 'linkOpening' },
      exit: assign({ codeSent: null }),
      // A reload (issue 43 item 8): the registration this browser holds continues through the same
      // steps as a proved mobile; without one (or when the call fails) step 0 stays. The form is
      // the page's first paint (prerendered) and is usable meanwhile: nothing else shows. Only the
      // wizard's start asks: back from the code, or 'verify by SMS' after a refused link, is the
      // patient's choice of step 0 (`ready`).
      initial: 'restoring',
      states: {
        restoring: {
          meta: { insight: { resumesPast: 'pin' } },
          invoke: {
            id: 'restore',
            src: 'restoreRegistration',
            onDone: [
              { guard: ({ event }) => event.output.registration === null, target: 'ready' },
              ...resumeTransitions,
            ],
            onError: 'ready',
          },
        },
        ready: {},
      },
      invoke: {
        id: 'registrationForm',
        src: 'registrationForm',
        input: ({ context }) => ({ codeSent: context.codeSent }),
        onDone: [
          {
            guard: ({ event }) => event.output.outcome === 'sent',
            target: 'verification',
            actions: assign(({ event }) =>
              event.output.outcome === 'sent'
                ? {
                    phone: event.output.phone,
                    email: event.output.email,
                    resendAfterSeconds: event.output.resendAfterSeconds,
                  }
                : {},
            ),
          },
          { target: 'patientExists' },
        ],
        onError: '#onboarding.unexpected',
      },
    },
    verification: {
      meta: { insight: { step: 'verification', resumesPast: 'pin' } },
      on: {
        // Back to step 0 with the number (issue 29 item 11): the code sent stays usable, and the
        // same number again within the resend wait comes back here without a new send.
        'flow.back': {
          target: '#onboarding.registration.ready',
          actions: assign({
            codeSent: ({ context, self }) => ({
              phone: known(context.phone, 'mobile'),
              email: context.email,
              secondsLeft: self.getSnapshot().children.otp?.getSnapshot().context.secondsLeft ?? 0,
            }),
          }),
        },
      },
      invoke: {
        id: 'otp',
        src: 'otp',
        input: ({ context }) => ({
          recipient: { celular: known(context.phone, 'mobile') },
          resendAfterSeconds: context.resendAfterSeconds ?? undefined,
        }),
        onDone: resumeTransitions,
        onError: '#onboarding.unexpected',
      },
    },
    pinCreation: {
      meta: { insight: { step: 'pin' } },
      invoke: {
        id: 'pinCreation',
        src: 'pinCreation',
        input: ({ context }) => ({
          registrationToken: known(context.registrationToken, 'registration'),
          email: context.email,
        }),
        onDone: { target: 'welcome', actions: assign({ pin: ({ event }) => event.output.pin }) },
        onError: '#onboarding.unexpected',
      },
    },
    welcome: {
      meta: { insight: { step: 'welcome' } },
      on: { 'welcome.next': 'kyc' },
      // Step 4's code downloads while the patient reads the tips, so step 4 starts without waiting.
      // A failed preload is not the patient's concern here: step 4 loads again and shows its own
      // failure with a retry (kyc.loadFailed).
      invoke: { id: 'preloadKyc', src: 'loadKyc', onError: { actions: [] } },
    },
    kyc: {
      initial: 'loading',
      states: {
        // The KYC machine's chunk: already there after the welcome's preload, else downloaded now.
        loading: {
          meta: { insight: { step: 'kycLoad' } },
          tags: ['busy'],
          invoke: {
            id: 'loadKyc',
            src: 'loadKyc',
            onDone: {
              target: 'running',
              actions: { type: 'spawnKyc', params: ({ event }) => event.output },
            },
            onError: {
              target: 'loadFailed',
              actions: assign({ error: { code: 'kycLoadFailed' } }),
            },
          },
        },
        loadFailed: {
          meta: { insight: { step: 'kycLoad' } },
          tags: ['error'],
          on: { 'kycLoad.retry': { target: 'loading', actions: 'clearError' } },
        },
        // The KYC child (spawned by spawnKyc) owns the sub-steps; leaving stops it and its camera.
        running: {
          meta: { insight: { child: 'kycLoad' } },
          exit: stopChild('kyc'),
          on: {
            'handoff.start': {
              target: '#onboarding.handoff',
              actions: assign({ cameraMissing: ({ event }) => event.cameraMissing }),
            },
            'xstate.done.actor.kyc': [
              {
                // The card is read: a PIN made from its birth date or number is asked again.
                guard: ({ context, event }) =>
                  context.pin !== null &&
                  isPinFromOwnData(context.pin, ownDataOf(event.output.kycResult)),
                target: '#onboarding.pinRenewal',
                actions: 'assignKycOutput',
              },
              { target: '#onboarding.registering', actions: 'assignKycOutput' },
            ],
            'xstate.error.actor.kyc': childBroke,
          },
        },
      },
    },
    // 'Seguí en tu celular': the phone continues the registration from the SMS link; this device
    // follows it (the `handoff` child) and shows the completion when the phone finishes.
    handoff: {
      meta: { insight: { step: 'handoff' } },
      // Not offered on a device without a camera (issue 29 item 12): only the phone can go on.
      on: { 'handoff.cancel': { guard: ({ context }) => !context.cameraMissing, target: 'kyc' } },
      invoke: {
        id: 'handoff',
        src: 'handoff',
        input: ({ context }) => ({
          registrationToken: known(context.registrationToken, 'registration'),
          phone: known(context.phone, 'mobile'),
          cameraMissing: context.cameraMissing,
        }),
        onDone: 'complete',
        onError: '#onboarding.unexpected',
      },
    },
    // The PIN chosen at step 2 is made from the card just read: 'Elegí otro PIN' (the `pinRenewal`
    // child) asks for another before the patient is created (the server refuses it at register too).
    pinRenewal: {
      meta: { insight: { step: 'pin' } },
      entry: assign({ pin: null }),
      exit: assign({ pinRefused: false }),
      invoke: {
        id: 'pinRenewal',
        src: 'pinRenewal',
        input: ({ context }) => ({
          ownData: ownDataOf(context.kycResult),
          refused: context.pinRefused,
        }),
        onDone: {
          target: 'registering',
          actions: assign({ pin: ({ event }) => event.output.pin }),
        },
        onError: '#onboarding.unexpected',
      },
    },
    // The final register call (the `registering` child); back is its to take (not while in flight).
    registering: {
      meta: { insight: { step: 'register' } },
      on: { 'flow.back': { actions: sendTo('registering', { type: 'flow.back' }) } },
      invoke: {
        id: 'registering',
        src: 'registering',
        input: ({ context }) => registerRequestOf(context),
        onDone: [
          { guard: ({ event }) => event.output.outcome === 'registered', target: 'complete' },
          { guard: ({ event }) => event.output.outcome === 'exists', target: 'patientExists' },
          {
            guard: ({ event }) => event.output.outcome === 'pinRefused',
            target: 'pinRenewal',
            actions: assign({ pinRefused: true }),
          },
          { target: 'leaving' },
        ],
        onError: '#onboarding.unexpected',
      },
    },
    // The patient left (issue 43 item 8): this browser forgets the registration it holds (its
    // cookie and token), so on a shared computer the next person finds nothing; the registration
    // itself stays for the mobile proved again or an SMS link. Home either way.
    leaving: {
      invoke: {
        id: 'forget',
        src: 'forgetRegistration',
        input: ({ context }) => ({
          registrationToken: known(context.registrationToken, 'registration'),
        }),
        onDone: 'home',
        onError: 'home',
      },
    },
    // A child machine failed (a bug, not a patient's mistake): the spec's 'Algo salió mal, recargá la página.'
    unexpected: {
      meta: { insight: { fails: 'unexpected' } },
      tags: ['error'],
      entry: assign({ error: { code: 'unexpected' } }),
    },
    // The PIN is not needed any more once the patient exists.
    complete: { type: 'final', meta: { insight: { end: 'passed' } }, entry: assign({ pin: null }) },
    patientExists: {
      type: 'final',
      meta: { insight: { fails: 'patientExists' } },
      entry: assign({ pin: null }),
    },
    home: { type: 'final', meta: { insight: { end: 'cancelled' } }, entry: assign({ pin: null }) },
  },
});

export type OnboardingMachine = typeof onboardingMachine;
