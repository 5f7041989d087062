import { QueryClient } from '@tanstack/react-query';

/** The app's one query cache: main.tsx fills the session into it before the first render, Providers hands it to the screens. */
export const queryClient = new QueryClient({ defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } } });
