import { useLocation } from 'react-router';

/** Stands in for a page in router tests: it names the path it was opened at. */
export function StubScreen() {
  return <h1>screen {useLocation().pathname}</h1>;
}
