import { tcpRelay, type TcpRelay } from './tcp-relay';

/** A TCP relay in front of PostgreSQL (tcp-relay.ts): holds what the server sends, or vanishes like a lost database and comes back. */
export type DatabaseRelay = TcpRelay;

export const databaseRelay = (target: URL): Promise<DatabaseRelay> => tcpRelay(target, 5432);
