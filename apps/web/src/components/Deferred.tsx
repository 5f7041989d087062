import { useDeferredValue, type ReactNode } from 'react';

/**
 * Its children in a second, background render after the page's first (React's useDeferredValue
 * with an initial value), so that first render and its commit hold less on a phone (issue 21
 * point 5). Only this component renders again: a part of the page still loading elsewhere (the
 * booking form's code) does not hold them back.
 */
export function Deferred({ children }: { children: ReactNode }) {
  return useDeferredValue(true, false) ? children : null;
}
