import { createServer } from 'node:http';

/**
 * A stand-in for Facebook's login dialog and Graph API, for the browser tests (the machine has no
 * internet). The dialog offers one person; the code it hands back names them.
 */
const port = Number(process.env.FAKE_FACEBOOK_PORT ?? 3211);
const PERSON = { id: '5550001', first_name: 'Fiona', last_name: 'Facebook', email: 'fiona.facebook@example.com' };

const server = createServer((request, response) => {
  const url = new URL(request.url ?? '/', `http://127.0.0.1:${port}`);
  const json = (status: number, body: unknown) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  };
  if (url.pathname === '/dialog/oauth') {
    const back = new URL(url.searchParams.get('redirect_uri') ?? '');
    back.search = new URLSearchParams({ code: `code-${PERSON.id}`, state: url.searchParams.get('state') ?? '' }).toString();
    response.writeHead(200, { 'content-type': 'text/html' });
    response.end(`<!doctype html><title>Log in with Facebook</title><h1>Log in with Facebook</h1><a href="${back.toString()}">Continue as ${PERSON.first_name}</a>`);
    return;
  }
  if (url.pathname === '/oauth/access_token') {
    if (url.searchParams.get('code') === `code-${PERSON.id}`) json(200, { access_token: `token-${PERSON.id}`, token_type: 'bearer' });
    else json(400, { error: { message: 'Invalid code' } });
  } else if (url.pathname === '/me' && url.searchParams.get('access_token') === `token-${PERSON.id}`) {
    json(200, PERSON);
  } else if (url.pathname === '/health') {
    json(200, { ok: true });
  } else {
    json(404, { error: { message: 'Unknown path' } });
  }
});
server.listen(port, '127.0.0.1');
