/** Request and response schemas of each area's routes. */
export * from './api/auth';
export * from './api/users';
export * from './api/wallet';
export * from './api/notifications';
export * from './api/cartypes';
export * from './api/promos';
export * from './api/cancelreasons';
