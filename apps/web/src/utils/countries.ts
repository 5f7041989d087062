import { getCountries, getCountryCallingCode, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/min';

/** Section 3's country list entry: code, label and phone dial code. */
export type Country = { code: CountryCode; label: string; dialCode: string };

/** Every country with a dial code (about 240), named in the given language, sorted by name. */
export function countryList(language: string): Country[] {
  const names = new Intl.DisplayNames([language, 'en'], { type: 'region' });
  return getCountries()
    .map((code) => ({ code, label: names.of(code) ?? code, dialCode: getCountryCallingCode(code) }))
    .sort((a, b) => a.label.localeCompare(b.label, language));
}

/** The country the settings name (section 3 `country`), by English name or code. */
export function countryNamed(countries: Country[], name: string | undefined): Country | undefined {
  if (!name) return undefined;
  const english = new Intl.DisplayNames(['en'], { type: 'region' });
  const wanted = name.trim().toLowerCase();
  return countries.find((country) => country.code.toLowerCase() === wanted || english.of(country.code)?.toLowerCase() === wanted);
}

/**
 * The mobile as the API keeps it (section 5: digits, no plus): the dial code in front of the
 * number typed. A number typed as people write it at home, with its trunk prefix (07700 900123
 * in the UK), is read by libphonenumber into its international form (447700900123); anything
 * else is sent as typed behind the dial code, and the server answers section 5's key.
 */
export function mobileDigits(typed: string, country: Country | null | undefined): string {
  const national = typed.trim();
  if (national === '' || !country) return national;
  const parsed = /^\d+$/.test(national) ? parsePhoneNumberFromString(national, country.code) : undefined;
  return parsed?.isPossible() ? parsed.number.slice(1) : `${country.dialCode}${national}`;
}

/**
 * A stored mobile split into its country and the number behind the dial code, for editing: the
 * settings' country when its dial code starts it, else the country the number belongs to.
 */
export function splitMobile(mobile: string, countries: Country[], preferred: Country | undefined): { country: Country | undefined; national: string } {
  if (mobile === '') return { country: undefined, national: '' };
  if (preferred && mobile.startsWith(preferred.dialCode)) return { country: preferred, national: mobile.slice(preferred.dialCode.length) };
  const parsed = parsePhoneNumberFromString(`+${mobile}`);
  const country = countries.find((candidate) => candidate.code === parsed?.country);
  return country && parsed ? { country, national: parsed.nationalNumber } : { country: undefined, national: mobile };
}
