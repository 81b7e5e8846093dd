import { type RefObject, useEffect, useEffectEvent, useSyncExternalStore } from 'react';

const subscribe = () => () => {};

/**
 * False in prerendered HTML and during hydration, true once React owns the page (and at once on a
 * client render). E.g. a submit stays disabled until its handler is attached.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}

/** Per field name of a form: where its typed value goes (a machine event). */
export type TypedValueHandlers = Record<string, (value: string) => void>;

/**
 * A prerendered form can be typed into before React takes over: the text is in the inputs but not
 * in the machine, and the next render would wipe it (React keeps an input's value when it hydrates
 * it, but replays no change event). Once, right after mounting, hand every named field's value to
 * its handler when it differs from the value React rendered (the input's value attribute, which
 * React keeps equal to the machine's value). Nothing re-renders the fields before then: the
 * machine's actor starts in its Provider's effect, after this one. On a client render nothing was
 * typed yet: nothing happens. e2e/prerender.spec.ts types before, during and after hydration.
 */
export function useAdoptTypedValues(
  form: RefObject<HTMLFormElement | null>,
  handlers: TypedValueHandlers | undefined,
): void {
  const adoptAll = useEffectEvent(() => {
    for (const [name, adopt] of Object.entries(handlers ?? {})) {
      const field = form.current?.elements.namedItem(name);
      if (field instanceof HTMLInputElement && field.value !== field.defaultValue)
        adopt(field.value);
    }
  });
  useEffect(() => adoptAll(), []);
}
