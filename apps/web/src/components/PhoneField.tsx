import { Autocomplete, InputAdornment, TextField } from '@mui/material';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSettings } from '../api/settings';
import type { FieldErrorProps } from '../hooks/use-form-errors';
import { countryList, countryNamed, mobileDigits, splitMobile, type Country } from '../utils/countries';

/**
 * A mobile number being typed: its country (the settings' country until another is picked, issue
 * 17) and the number behind the dial code. `mobile` is what the API takes.
 */
export function usePhoneNumber(initialMobile = '') {
  const { i18n } = useTranslation();
  const { data: settings } = useSettings();
  const countries = useMemo(() => countryList(i18n.language), [i18n.language]);
  const preferred = countryNamed(countries, settings?.country);
  const initial = useMemo(() => splitMobile(initialMobile, countries, preferred), [initialMobile, countries, preferred]);
  const [chosen, setCountry] = useState<Country | null>(null);
  const [typed, setNational] = useState<string | null>(null);
  const country = chosen ?? initial.country ?? preferred ?? null;
  const national = typed ?? initial.national;
  return { countries, country, national, setCountry, setNational, canChooseCountry: settings?.AllowCountrySelection ?? false, mobile: mobileDigits(national, country) };
}

type PhoneNumber = ReturnType<typeof usePhoneNumber>;

/**
 * The country picker (when AllowCountrySelection is on) and the mobile field with the dial code
 * in front; used by sign-up, phone sign-in and the profile. An error of the form's `mobile` shows
 * on the number (`errorProps`, issue 17); `onTyped` tells the form the number changed.
 */
export function PhoneField({ phone, disabled = false, required = false, autoComplete = 'tel-national', errorProps, onTyped }: { phone: PhoneNumber; disabled?: boolean; required?: boolean; autoComplete?: string; errorProps?: FieldErrorProps; onTyped?: () => void }) {
  const { t } = useTranslation();
  return (
    <>
      {phone.canChooseCountry && (
        <Autocomplete
          options={phone.countries}
          value={phone.country}
          disabled={disabled}
          onChange={(_event, value) => { phone.setCountry(value); }}
          getOptionLabel={(option) => `${option.label} (+${option.dialCode})`}
          isOptionEqualToValue={(option, value) => option.code === value.code}
          renderInput={(params) => <TextField {...params} label={t('country')} />}
        />
      )}
      <TextField
        label={t('mobile')}
        type="tel"
        autoComplete={autoComplete}
        value={phone.national}
        disabled={disabled}
        required={required}
        onChange={(event) => {
          phone.setNational(event.target.value);
          onTyped?.();
        }}
        {...errorProps}
        slotProps={{ input: { startAdornment: phone.country ? <InputAdornment position="start">+{phone.country.dialCode}</InputAdornment> : undefined } }}
      />
    </>
  );
}
