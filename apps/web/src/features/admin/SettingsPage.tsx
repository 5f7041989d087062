import type { Settings } from '@rideway/contract';
import { Box, Button, Container, FormControlLabel, Grid, MenuItem, Paper, Stack, Switch, TextField, Typography } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { FormError } from '../../components/FormError';
import { useNotice } from '../../components/NoticeProvider';
import { FormSkeleton } from '../../components/Skeletons';
import { api } from '../../api/client';
import { SETTINGS, useSettings } from '../../api/settings';
import { useFormErrors } from '../../hooks/use-form-errors';
import { ServiceAreaSection } from './ServiceAreaSection';

type Field = keyof Settings;

/** Section 3's settings, grouped as an admin thinks of them. */
const GROUPS: { title: string; fields: Field[] }[] = [
  { title: 'settings_general', fields: ['appName', 'appcat', 'symbol', 'code', 'country', 'timezone'] },
  { title: 'settings_business', fields: ['bonus', 'driverRadius', 'convert_to_mile', 'otp_secure', 'driver_approval', 'RequireDriverDocuments', 'email_verify', 'autoDispatch', 'CarHornRepeat', 'bank_fields'] },
  { title: 'settings_sign_in', fields: ['MobileLoginEnabled', 'FacebookLoginEnabled', 'GoogleLoginEnabled', 'AppleLoginEnabled', 'RequireStaffTwoFactor', 'AllowCountrySelection', 'AllowCriticalEditsAdmin'] },
  { title: 'settings_company', fields: ['CompanyName', 'CompanyWebsite', 'CompanyTerms', 'contact_email', 'license'] },
  { title: 'settings_links', fields: ['FacebookHandle', 'TwitterHandle', 'InstagramHandle', 'AppleStoreLink', 'PlayStoreLink'] },
  { title: 'settings_privacy', fields: ['locationHistoryDays'] },
];

/** The fields a refusal can land on (issue 17); one about the service area is the form's. */
const ERROR_FIELDS = GROUPS.flatMap((group) => group.fields);

// Section 5: bonus and driver radius take numbers of 0 or more; anything else empties the field.
const NUMBER = /^\d*\.?\d*$/;

type Draft = Record<Exclude<Field, 'serviceArea'>, string | boolean> & Pick<Settings, 'serviceArea'>;

const draftOf = (settings: Settings): Draft => Object.fromEntries(Object.entries(settings).map(([key, value]) => [key, typeof value === 'number' ? String(value) : value])) as Draft;

/** Section 2 /settings: every setting, saved together; the server answers section 5's keys. */
export function SettingsPage() {
  const { t } = useTranslation();
  const { data: settings } = useSettings();
  // The admin's settings carry every field; the public subset would not fill the form.
  if (settings?.autoDispatch !== undefined) return <SettingsForm settings={settings as Settings} />;
  return (
    <Container maxWidth="md" sx={{ py: 3 }}>
      <Typography variant="h5" component="h1" gutterBottom>
        {t('menu_settings')}
      </Typography>
      <FormSkeleton fields={6} />
    </Container>
  );
}

function SettingsForm({ settings }: { settings: Settings }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<Draft>(() => draftOf(settings));
  const notify = useNotice();
  const errors = useFormErrors(ERROR_FIELDS);
  const save = useMutation({
    mutationFn: (body: Record<string, unknown>) => api<{ settings: Settings }>('/api/settings', { method: 'PATCH', body }),
    onSuccess: ({ settings: saved }) => {
      // The saved settings, over what the server adds from its configuration (the map tiles).
      queryClient.setQueryData(SETTINGS, (before: object | undefined) => ({ ...before, ...saved }));
      setDraft(draftOf(saved));
      notify(t('updated'));
    },
    onError: errors.show,
  });
  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    errors.clear();
    const stored = draftOf(settings);
    const changed = Object.fromEntries(
      (Object.keys(draft) as Field[])
        .filter((field) => draft[field] !== stored[field])
        .map((field) => [field, typeof settings[field] === 'number' ? (draft[field] === '' ? '' : Number(draft[field])) : draft[field]]),
    );
    save.mutate(changed);
  };
  const input = (field: Field) => {
    const value = draft[field];
    if (typeof value === 'boolean') {
      return <FormControlLabel control={<Switch checked={value} onChange={(event) => { setDraft({ ...draft, [field]: event.target.checked }); errors.clear(field); }} />} label={t(`setting_${field}`)} />;
    }
    if (field === 'appcat') {
      return (
        <TextField select fullWidth label={t('setting_appcat')} value={value} onChange={(event) => { setDraft({ ...draft, appcat: event.target.value }); errors.clear(field); }} {...errors.field(field)}>
          <MenuItem value="taxi">{t('appcat_taxi')}</MenuItem>
          <MenuItem value="delivery">{t('appcat_delivery')}</MenuItem>
        </TextField>
      );
    }
    const numeric = typeof settings[field] === 'number';
    return (
      <TextField
        fullWidth
        label={t(`setting_${field}`)}
        value={value}
        inputMode={numeric ? 'decimal' : undefined}
        onChange={(event) => {
          setDraft({ ...draft, [field]: numeric && !NUMBER.test(event.target.value) ? '' : event.target.value });
          errors.clear(field);
        }}
        {...errors.field(field)}
      />
    );
  };
  return (
    <Container maxWidth="md" sx={{ py: 3 }}>
      <Typography variant="h5" component="h1" gutterBottom>
        {t('menu_settings')}
      </Typography>
      <Stack component="form" spacing={2} onSubmit={submit} noValidate>
        {GROUPS.map((group) => (
          <Paper key={group.title} variant="outlined" component="section" aria-label={t(group.title)} sx={{ p: 2 }}>
            <Typography variant="h6" component="h2" gutterBottom>
              {t(group.title)}
            </Typography>
            <Grid container spacing={2}>
              {group.fields.map((field) => (
                <Grid key={field} size={{ xs: 12, sm: 6 }}>
                  {input(field)}
                </Grid>
              ))}
            </Grid>
          </Paper>
        ))}
        <ServiceAreaSection value={draft.serviceArea} onChange={(serviceArea) => { setDraft((current) => ({ ...current, serviceArea })); }} />
        <FormError message={errors.formError} />
        <Box>
          <Button type="submit" variant="contained" size="large" loading={save.isPending}>
            {t('save')}
          </Button>
        </Box>
      </Stack>
    </Container>
  );
}
