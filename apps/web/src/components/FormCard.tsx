import { Container, Paper, Typography } from '@mui/material';
import type { ReactNode } from 'react';

/** A form page's frame: a centred card with the page's heading. */
export function FormCard({ title, width, children }: { title: string; width: 'xs' | 'sm'; children: ReactNode }) {
  return (
    <Container maxWidth={width} sx={{ py: 6 }}>
      <Paper sx={{ p: 3 }}>
        <Typography variant="h5" component="h1" gutterBottom>
          {title}
        </Typography>
        {children}
      </Paper>
    </Container>
  );
}
