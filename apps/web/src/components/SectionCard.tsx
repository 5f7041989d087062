import { Card, CardContent, Typography } from '@mui/material';
import { useId, type ReactNode } from 'react';

/** A titled card that is a section of its page (the wallet, earnings, withdraws on the profile). */
export function SectionCard({ title, children }: { title: string; children: ReactNode }) {
  const titleId = useId();
  return (
    <Card variant="outlined" component="section" aria-labelledby={titleId}>
      <CardContent>
        <Typography id={titleId} variant="h6" component="h2" gutterBottom>
          {title}
        </Typography>
        {children}
      </CardContent>
    </Card>
  );
}
