import DownloadIcon from '@mui/icons-material/Download';
import { Button, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useDataExport } from '../../api/account';
import { errorKey } from '../../api/client';
import { useNotice } from '../../components/NoticeProvider';
import { SectionCard } from '../../components/SectionCard';

/** Issue 20: a copy of the own data, as privacy law expects it handed over (GET /api/me/export). */
export function MyDataCard() {
  const { t } = useTranslation();
  const notify = useNotice();
  const download = useDataExport();
  return (
    <SectionCard title={t('my_data')}>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {t('my_data_help')}
      </Typography>
      <Button
        variant="outlined"
        startIcon={<DownloadIcon />}
        loading={download.isPending}
        onClick={() => {
          download.mutate(undefined, {
            onSuccess: () => { notify(t('my_data_downloaded')); },
            onError: (error) => { notify(t(errorKey(error)), 'error'); },
          });
        }}
      >
        {t('download_my_data')}
      </Button>
    </SectionCard>
  );
}
