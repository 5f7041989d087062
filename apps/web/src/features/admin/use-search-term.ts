import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';

/** How long typing pauses before the search is sent (section 9's autocomplete debounce is 200 ms; a list is heavier). */
const SEARCH_DEBOUNCE_MS = 300;

/**
 * Issue 20 point 6: the search term lives in the address (?search=), so a reload or a link keeps
 * it; typing updates the address once the typing pauses, replacing the entry instead of adding
 * one per letter.
 */
export function useSearchTerm() {
  const [params, setParams] = useSearchParams();
  const term = params.get('search') ?? '';
  const [typed, setTyped] = useState(term);
  useEffect(() => {
    if (typed === term) return undefined;
    const timer = setTimeout(() => {
      setParams((current) => {
        const next = new URLSearchParams(current);
        if (typed.trim()) next.set('search', typed);
        else next.delete('search');
        return next;
      }, { replace: true });
    }, SEARCH_DEBOUNCE_MS);
    return () => { clearTimeout(timer); };
  }, [typed, term, setParams]);
  return { term, typed, setTyped };
}
