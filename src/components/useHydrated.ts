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

/** The last value typed into each input element, recorded outside React (see recordTyping). */
const typed = new WeakMap<EventTarget, string>();

/**
 * Records every input's value as it is typed, in the capture phase, before React sees the event.
 * main.tsx calls it before hydrating. Text typed while React hydrates a prerendered form can be lost
 * (an event during hydration can reach a render React then discards, and React resets a controlled
 * input to its rendered value); the record keeps it for useAdoptTypedValues. Keyed by element, so a
 * form rendered later on the client (new elements) never picks up an old value.
 */
export function recordTyping(doc: Document): void {
  doc.addEventListener(
    'input',
    (event) => {
      if (event.target instanceof HTMLInputElement) typed.set(event.target, event.target.value);
    },
    true,
  );
}

/** Per field name of a form: where its typed value goes (a machine event). */
export type TypedValueHandlers = Record<string, (value: string) => void>;

/**
 * A prerendered form can be typed into before React takes over: the text is in the inputs but not
 * in the machine, and the next render would wipe it. Once, right after mounting, hand every named
 * field's typed value (recorded by recordTyping, else the input's value) to its handler when it
 * differs from the value React rendered (the input's value attribute, which React keeps equal to
 * the machine's value). On a client render nothing was typed yet: nothing happens.
 */
export function useAdoptTypedValues(
  form: RefObject<HTMLFormElement | null>,
  handlers: TypedValueHandlers | undefined,
): void {
  const adoptAll = useEffectEvent(() => {
    for (const [name, adopt] of Object.entries(handlers ?? {})) {
      const field = form.current?.elements.namedItem(name);
      if (!(field instanceof HTMLInputElement)) continue;
      const value = typed.get(field) ?? field.value;
      if (value !== field.defaultValue) adopt(value);
    }
  });
  useEffect(() => adoptAll(), []);
}
