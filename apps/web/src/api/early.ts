declare global {
  interface Window {
    /** The requests public/early-requests.js started before the app's script loaded, by address. */
    ridewayEarly?: Map<string, Promise<Response>>;
  }
}

/**
 * The answer to a request public/early-requests.js made before the app loaded (issue 21 point 5),
 * taken once; undefined when it was not made, failed or was refused, and the caller asks itself.
 */
export async function takeEarly(url: string): Promise<Response | undefined> {
  const early = window.ridewayEarly?.get(url);
  window.ridewayEarly?.delete(url);
  if (!early) return undefined;
  return early.then((response) => (response.ok ? response : undefined), () => undefined);
}
