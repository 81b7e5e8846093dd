import type { ComponentProps, MouseEvent } from 'react';
import { Link, Navigate } from 'react-router-dom';

/**
 * The app's only doors to the router (react-router-dom 7). Screens navigate through these (or a
 * plain `<a href>` for a full page load), never by importing the router, so a router change stays
 * in this file and src/app/.
 */

type AppLinkProps = Omit<ComponentProps<'a'>, 'href'> & {
  /** An app path such as '/login'. */
  to: string;
  /** Replace the current history entry instead of pushing one. */
  replace?: boolean;
  /** Shown but inert (aria-disabled, out of the tab order, clicks ignored), e.g. while a form is busy. */
  disabled?: boolean;
};

/** A link inside the app: client-side navigation, a real `href` for new tabs and crawlers. */
export function AppLink({ to, replace, disabled = false, onClick, ...rest }: AppLinkProps) {
  return (
    <Link
      {...rest}
      to={to}
      replace={replace}
      aria-disabled={disabled || undefined}
      tabIndex={disabled ? -1 : rest.tabIndex}
      onClick={(e: MouseEvent<HTMLAnchorElement>) => {
        if (disabled) {
          e.preventDefault();
          return;
        }
        onClick?.(e);
      }}
    />
  );
}

/** Rendering this moves to `to` (replacing the current entry unless `push`). */
export function Redirect({ to, push = false }: { to: string; push?: boolean }) {
  return <Navigate to={to} replace={!push} />;
}
