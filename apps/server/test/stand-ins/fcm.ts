import { createPublicKey, createVerify, randomUUID, type KeyObject } from 'node:crypto';
import { createServer } from 'node:http';
import nock from 'nock';
import { answerJson, bodyOf, listenLocally } from './stand-in-server';

/**
 * A local stand-in for FCM HTTP v1 and Google's OAuth 2.0 token endpoint, written from:
 * - https://developers.google.com/identity/protocols/oauth2/service-account ("Preparing to make
 *   an authorized API call", the JWT bearer grant of RFC 7523): POST /token with
 *   grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer and an RS256-signed assertion whose
 *   iss is the service account, scope the API's, aud the token endpoint; the answer is
 *   `{access_token, expires_in, token_type: 'Bearer'}`. The signature is checked against the
 *   service account's public key.
 * - https://firebase.google.com/docs/reference/fcm/rest/v1/projects.messages/send: POST
 *   /v1/projects/{project}/messages:send with `Authorization: Bearer <token>` and `{message}`;
 *   success answers the Message with its `name`, `projects/{project}/messages/{id}`.
 * - https://firebase.google.com/docs/cloud-messaging/error-codes and
 *   https://firebase.google.com/docs/reference/fcm/rest/v1/ErrorCode: errors are
 *   `{error: {code, message, status, details: [{'@type': '...FcmError', errorCode}]}}`.
 *
 * What it answers for a token is scripted per token (`script`), one mode per request, then `ok`.
 */
export type FcmMode = 'ok' | 'unregistered' | 'invalid' | 'internal' | 'hang' | 'garbage';

export type FcmStandIn = {
  url: string;
  /** Every message FCM took, in order. */
  accepted: { token: string; message: Record<string, unknown> }[];
  /** Every send request seen (tokens), whatever was answered. */
  attempts: string[];
  tokenRequests: number;
  script: Map<string, FcmMode[]>;
  close: () => Promise<void>;
};

const TOKEN_URL = 'https://oauth2.googleapis.com/token';
const FCM_ERROR = 'type.googleapis.com/google.firebase.fcm.v1.FcmError';

const fcmError = (code: number, status: string, message: string, errorCode: string) => ({ error: { code, message, status, details: [{ '@type': FCM_ERROR, errorCode }] } });

function verifyAssertion(assertion: string, key: KeyObject, clientEmail: string): boolean {
  const [header, claims, signature] = assertion.split('.');
  if (!header || !claims || !signature) return false;
  const verifier = createVerify('RSA-SHA256');
  verifier.update(`${header}.${claims}`);
  if (!verifier.verify(key, Buffer.from(signature, 'base64url'))) return false;
  const body = JSON.parse(Buffer.from(claims, 'base64url').toString('utf8')) as Record<string, unknown>;
  return body.iss === clientEmail && body.aud === TOKEN_URL && typeof body.scope === 'string' && body.scope.includes('https://www.googleapis.com/auth/firebase.messaging');
}

export async function startFcmStandIn({ projectId, clientEmail, publicKeyPem }: { projectId: string; clientEmail: string; publicKeyPem: string }): Promise<FcmStandIn> {
  const key = createPublicKey(publicKeyPem);
  const issued = new Set<string>();
  if (!nock.isActive()) nock.activate();
  const standIn: FcmStandIn = { url: '', accepted: [], attempts: [], tokenRequests: 0, script: new Map(), close: () => Promise.resolve() };
  const server = createServer((request, response) => {
    void bodyOf(request).then((received) => {
      const raw = received.toString('utf8');
      const answer = (status: number, json: unknown) => { answerJson(response, status, json, 'application/json; charset=UTF-8'); };
      if (request.method === 'POST' && request.url === '/token') {
        standIn.tokenRequests += 1;
        const form = new URLSearchParams(raw);
        if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer' || !verifyAssertion(form.get('assertion') ?? '', key, clientEmail)) {
          answer(400, { error: 'invalid_grant', error_description: 'Invalid JWT Signature.' });
          return;
        }
        const token = `ya29.${randomUUID()}`;
        issued.add(token);
        answer(200, { access_token: token, expires_in: 3599, token_type: 'Bearer' });
        return;
      }
      if (request.method !== 'POST' || request.url !== `/v1/projects/${projectId}/messages:send`) {
        answer(404, { error: { code: 404, message: 'Not found', status: 'NOT_FOUND' } });
        return;
      }
      const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
      if (!bearer || !issued.has(bearer)) {
        answer(401, { error: { code: 401, message: 'Request had invalid authentication credentials.', status: 'UNAUTHENTICATED' } });
        return;
      }
      let message: Record<string, unknown>;
      try {
        message = (JSON.parse(raw) as { message: Record<string, unknown> }).message;
      } catch {
        answer(400, fcmError(400, 'INVALID_ARGUMENT', 'Invalid JSON payload received.', 'INVALID_ARGUMENT'));
        return;
      }
      const token = typeof message.token === 'string' ? message.token : '';
      standIn.attempts.push(token);
      const mode = standIn.script.get(token)?.shift() ?? 'ok';
      if (mode === 'hang') return;
      if (mode === 'garbage') {
        response.writeHead(200, { 'content-type': 'application/json' }).end('{"name": "projects/');
        return;
      }
      if (mode === 'unregistered') answer(404, fcmError(404, 'NOT_FOUND', 'Requested entity was not found.', 'UNREGISTERED'));
      else if (mode === 'invalid') answer(400, fcmError(400, 'INVALID_ARGUMENT', 'The registration token is not a valid FCM registration token', 'INVALID_ARGUMENT'));
      else if (mode === 'internal') answer(500, fcmError(500, 'INTERNAL', 'Internal error encountered.', 'INTERNAL'));
      else {
        standIn.accepted.push({ token, message });
        answer(200, { name: `projects/${projectId}/messages/${String(standIn.accepted.length)}` });
      }
    });
  });
  const listening = await listenLocally(server);
  standIn.url = listening.url;

  // firebase-admin's hosts are fixed in the SDK (fcm.googleapis.com, and google-auth-library's
  // oauth2.googleapis.com): nock, an in-process HTTP interceptor, routes the SDK's calls to this
  // stand-in, with their method, path, headers and body as sent.
  const forward = (origin: string) =>
    nock(origin)
      .persist()
      .post(/.*/)
      .reply(async function forwardToStandIn(path, body) {
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(this.req.headers)) if (typeof value === 'string' && name !== 'host' && name !== 'content-length') headers[name] = value;
        const sent = typeof body === 'string' ? body : JSON.stringify(body);
        const reply = await fetch(`${standIn.url}${path}`, { method: 'POST', headers, body: sent });
        return [reply.status, await reply.text(), { 'content-type': reply.headers.get('content-type') ?? 'application/json' }];
      });
  const scopes = [forward('https://fcm.googleapis.com'), forward('https://oauth2.googleapis.com')];
  nock.enableNetConnect(/127\.0\.0\.1/);
  standIn.close = async () => {
    for (const scope of scopes) scope.persist(false);
    nock.cleanAll();
    nock.restore();
    await listening.close();
  };
  return standIn;
}
