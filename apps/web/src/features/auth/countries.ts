import { getCountries, getCountryCallingCode, type CountryCode } from 'libphonenumber-js/min';

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
