import { Box, Card, CardContent, Skeleton, Stack } from '@mui/material';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * Issue 17: the shape of what is loading (MUI's Skeleton) instead of an empty page. Each skeleton
 * is one busy region named "Loading" for screen readers; its shapes are hidden from them.
 */
function Loading({ children, testId }: { children: ReactNode; testId: string }) {
  const { t } = useTranslation();
  return (
    <Box role="status" aria-busy="true" aria-label={t('loading')} data-testid={testId}>
      <Box aria-hidden="true">{children}</Box>
    </Box>
  );
}

/** A form's fields and its button. */
export function FormSkeleton({ fields = 4 }: { fields?: number }) {
  return (
    <Loading testId="form-skeleton">
      <Stack spacing={2}>
        {Array.from({ length: fields }, (_unused, index) => <Skeleton key={index} variant="rounded" height={56} />)}
        <Skeleton variant="rounded" height={42} />
      </Stack>
    </Loading>
  );
}

/** A list of cards (bookings, offers). */
export function CardListSkeleton({ cards = 3 }: { cards?: number }) {
  return (
    <Loading testId="list-skeleton">
      <Stack spacing={2}>
        {Array.from({ length: cards }, (_unused, index) => (
          <Card key={index} variant="outlined">
            <CardContent>
              <Skeleton width="40%" />
              <Skeleton />
              <Skeleton width="70%" />
            </CardContent>
          </Card>
        ))}
      </Stack>
    </Loading>
  );
}

/** Lines of a list inside a card (earnings, withdraws, wallet history). */
export function LinesSkeleton({ lines = 3 }: { lines?: number }) {
  return (
    <Loading testId="lines-skeleton">
      {Array.from({ length: lines }, (_unused, index) => (
        <Box key={index} sx={{ py: 1 }}>
          <Skeleton width="60%" />
          <Skeleton width="35%" />
        </Box>
      ))}
    </Loading>
  );
}

/** A figure on a card (a balance, an earnings total) while it loads. */
export function FigureSkeleton() {
  return (
    <Loading testId="figure-skeleton">
      <Skeleton variant="text" width={120} sx={{ fontSize: '2.125rem' }} />
    </Loading>
  );
}
