import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { NoticeProvider } from '../components/NoticeProvider';

/** A fresh query cache per test, without retries, so a refusal shows at once; and the app's notices. */
export function queryWrapper(): { client: QueryClient; wrapper: (props: { children: ReactNode }) => ReactNode } {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  return { client, wrapper: ({ children }) => <QueryClientProvider client={client}><NoticeProvider>{children}</NoticeProvider></QueryClientProvider> };
}
