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
 * in the machine, and the next render would wipe it. Once, right after mounting, hand every named
 * field's typed value to its handler: one that differs from the value React rendered (the input's
 * value attribute, which React keeps equal to the machine's value). On a client render nothing was
 * typed yet: nothing happens.
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
