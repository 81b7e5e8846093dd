import type { SnapshotFrom } from 'xstate';
import { formatCentreCode, type RejectReason } from '../../contract/cases';
import { centresFor } from '../shared/departments';
import { paraguayDateInWords } from '../../contract/paraguay-time';
import type { AssistError } from './kyc.assist.types';
import type { KycMachine } from './kyc.machine';

type Snapshot = SnapshotFrom<KycMachine>;

/**
 * The way out's screens (issue 30), from the KYC machine's `assist` states: pure snapshot -> view
 * data; the views map codes to src/copy/es.assist.ts.
 */
export type AssistScreen =
  'offer' | 'opening' | 'openFailed' | 'waiting' | 'centre' | 'rejected' | 'expired' | 'decided';

const CASE_SCREENS = ['waiting', 'centre', 'rejected', 'expired', 'decided'] as const;

export function selectAssistScreen(s: Snapshot): AssistScreen | null {
  if (!s.matches('assist')) return null;
  if (s.matches({ assist: 'offer' })) return 'offer';
  // Sending the front taken first (issue 43 item 1) is part of opening the case.
  if (s.matches({ assist: 'opening' }) || s.matches({ assist: 'keepingFront' })) return 'opening';
  if (s.matches({ assist: 'openFailed' })) return 'openFailed';
  if (
    s.matches({ assist: { case: 'refreshing' } }) ||
    s.matches({ assist: { case: 'refreshFailed' } })
  )
    return 'waiting';
  return CASE_SCREENS.find((c) => s.matches({ assist: { case: c } })) ?? 'waiting';
}

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
      loading: s.matches({ assist: { case: { centre: 'loading' } } }),
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
export function selectAssistOffer(s: Snapshot): 'direct' | 'ask' | null {
  if (s.matches('assist')) return null;
  if (s.can({ type: 'assist.choose', kind: 'review' })) return 'direct';
  return s.can({ type: 'assist.open' }) ? 'ask' : null;
}

/**
 * A person's decision resumed here: 'verified' on the complementary data, the step to repeat on the
 * capture it names (null: no notice).
 */
export function selectAssistNotice(s: Snapshot): 'verified' | 'selfie' | 'front' | 'back' | null {
  if (s.context.verifiedNotice && s.matches('supplementary')) return 'verified';
  if (!s.context.repeatNotice) return null;
  if (s.matches('selfie')) return 'selfie';
  return s.matches({ document: 'live' }) ? s.context.side : null;
}
