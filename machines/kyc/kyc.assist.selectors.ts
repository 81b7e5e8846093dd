import type { SnapshotFrom } from 'xstate';
import { formatCentreCode, type RejectReason } from '../../contract/cases';
import { centresFor } from '../shared/departments';
import { paraguayDateInWords } from '../../contract/paraguay-time';
import type { AssistMachine } from './kyc.assist.machine';
import type { AssistError } from './kyc.assist.types';
import type { KycMachine } from './kyc.machine';

type Snapshot = SnapshotFrom<AssistMachine>;
type KycSnapshot = SnapshotFrom<KycMachine>;

/**
 * The way out's screens (issue 30), from the `assist` child's snapshot (kyc.assist.machine.ts):
 * pure snapshot -> view data; the views map codes to src/copy/es.assist.ts. The offer and the
 * notices on the identity steps read the KYC machine's.
 */
export type AssistScreen =
  'offer' | 'opening' | 'openFailed' | 'waiting' | 'centre' | 'rejected' | 'expired' | 'decided';

const CASE_SCREENS = ['waiting', 'centre', 'rejected', 'expired', 'decided'] as const;

export function selectAssistScreen(s: Snapshot): AssistScreen {
  // Sending the front taken first (issue 43 item 1) is part of opening the case.
  if (s.matches('opening') || s.matches('keepingFront')) return 'opening';
  if (s.matches('openFailed')) return 'openFailed';
  if (s.matches({ case: 'refreshing' }) || s.matches({ case: 'refreshFailed' })) return 'waiting';
  if (s.matches('case')) return CASE_SCREENS.find((c) => s.matches({ case: c })) ?? 'waiting';
  // The offer, and the moments around it (choosing where to go, 'Volver' taken).
  return 'offer';
}

/** The way out's child while the KYC machine runs it (its `assist` state), else undefined. */
export const selectAssistActor = (s: KycSnapshot) => s.children.assist;

/** A date the patient reads in words, in Paraguay's time ('jueves, 28 de noviembre de 2026'). */
export const formatDateInWords = (iso: string): string => paraguayDateInWords(new Date(iso));

export function selectAssistView(s: Snapshot) {
  const found = s.context.case;
  const department = s.context.department;
  // Every department; one without a centre gets the nearest ones (issue 43 item 10).
  const centres = centresFor(s.context.centres ?? [], department);
  return {
    screen: selectAssistScreen(s),
    busy: s.hasTag('busy'),
    kind: found?.kind ?? s.context.assist?.kind ?? null,
    /** review: when to expect an answer; centro: the code's deadline (in words) */
    expectedBy: found ? formatDateInWords(found.expectedBy) : null,
    /** the centre code as it is read aloud and typed: XXXX-XXXX */
    code: found?.code ? formatCentreCode(found.code) : null,
    rejectReason: (found?.rejectReason ?? null) as RejectReason | null,
    error: s.context.assistError as AssistError | null,
    canBack: s.can({ type: 'assist.back' }),
    canRetry: s.can({ type: 'assist.retry' }),
    canRefresh: s.can({ type: 'case.refresh' }),
    canReview: s.can({ type: 'assist.choose', kind: 'review' }),
    canCentre: s.can({ type: 'assist.choose', kind: 'centro' }),
    centres: {
      loading: s.matches({ case: { centre: 'loading' } }),
      departments: s.context.centres ? centres.departments : [],
      department: department ?? '',
      list: centres.list,
      nearest: centres.nearest,
    },
  };
}

/**
 * On an identity step: the two choices straight away after a refusal repeated ('direct'), else
 * 'No puedo completar este paso' ('ask'); null where neither is offered.
 */
export function selectAssistOffer(s: KycSnapshot): 'direct' | 'ask' | null {
  if (s.matches('assist')) return null;
  if (s.can({ type: 'assist.choose', kind: 'review' })) return 'direct';
  return s.can({ type: 'assist.open' }) ? 'ask' : null;
}

/**
 * A person's decision resumed here: 'verified' on the complementary data, the step to repeat on the
 * capture it names (null: no notice).
 */
export function selectAssistNotice(
  s: KycSnapshot,
): 'verified' | 'selfie' | 'front' | 'back' | null {
  if (s.context.verifiedNotice && s.matches('supplementary')) return 'verified';
  if (!s.context.repeatNotice) return null;
  if (s.matches('selfie')) return 'selfie';
  return s.matches({ document: 'live' }) ? s.context.side : null;
}
