import { describe, expect, it } from 'vitest';
import { loadConfig } from './config';

describe('configuration', () => {
  it('runs with no environment at all, on embedded defaults', () => {
    expect(loadConfig({})).toEqual({
      PORT: 3000,
      HOST: '127.0.0.1',
      DATA_DIR: './data',
      DEMO_DATA: true,
      TRUST_PROXY: false,
      MAIL_FROM: 'Rideway <no-reply@rideway.local>',
      LOG_LEVEL: 'info',
      REDIS_PREFIX: 'rideway',
      DRIVER_TIMEOUT_S: 300,
      OFFER_BATCH_SIZE: 3,
      OFFER_TIMEOUT_S: 20,
      NO_TAKER_CANCEL_S: 300,
      BOOK_LATER_DISPATCH_AHEAD_S: 600,
      WS_HEARTBEAT_S: 30,
      VAPID_SUBJECT: 'mailto:admin@rideway.local',
      FACEBOOK_GRAPH_URL: 'https://graph.facebook.com/v21.0',
      FACEBOOK_DIALOG_URL: 'https://www.facebook.com/v21.0/dialog/oauth',
      MAP_TILE_URL: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png',
      MAP_TILE_ATTRIBUTION: '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors',
      PUSH_ALLOW_PRIVATE_ENDPOINTS_FOR_TESTS: false,
    });
  });

  it('reads every variable', () => {
    const config = loadConfig({
      PORT: '8080',
      HOST: '0.0.0.0',
      DATA_DIR: '/var/rideway',
      DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test',
      REDIS_URL: 'redis://127.0.0.1:6379',
      DEMO_DATA: '0',
      BOOTSTRAP_ADMIN_EMAIL: 'boss@example.com',
      BOOTSTRAP_ADMIN_PASSWORD: 'secret1',
      PUBLIC_URL: 'https://rideway.example',
    });
    expect(config).toMatchObject({ PORT: 8080, DEMO_DATA: false, DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test' });
  });

  it('treats an empty URL as unset', () => {
    expect(loadConfig({ DATABASE_URL: '', REDIS_URL: ' ' }).DATABASE_URL).toBeUndefined();
  });

  it('names every bad variable at once', () => {
    expect(() => loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', DEMO_DATA: 'maybe' })).toThrow(/PORT.*DATABASE_URL.*DEMO_DATA/);
  });
});
