import { Container, Paper, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { FormSkeleton } from './Skeletons';

/**
 * A form page's frame: a centred card with the page's heading. While what fills the form loads
 * (`loading`), the card shows the form's shape instead (issue 17).
 */
export function FormCard({ title, width, loading = false, children }: { title: string; width: 'xs' | 'sm'; loading?: boolean; children: ReactNode }) {
  return (
    <Container maxWidth={width} sx={{ py: 6 }}>
      <Paper sx={{ p: 3 }}>
        <Typography variant="h5" component="h1" gutterBottom>
          {title}
        </Typography>
        {loading ? <FormSkeleton /> : children}
      </Paper>
    </Container>
  );
}
