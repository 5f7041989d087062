import { ilike, or, sql, type SQL } from 'drizzle-orm';
import { users } from '../../db/schema';

/**
 * Issue 20 point 6: the admin's search over users. Security note: the term is a bound parameter,
 * never SQL; its LIKE wildcards (% and _) and the escape character itself are escaped, so a
 * search for "50%" finds "50%" and "_" does not match every user.
 */

/** The term as a LIKE pattern that finds it anywhere, every character taken literally (backslash is the default escape). */
export const containsPattern = (term: string): string => `%${term.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;

/** What separates digits in a typed phone number ("+44 7700-900 123"): mobiles are stored as digits only. */
const PHONE_SEPARATORS = /[\s().+-]/g;

/**
 * First or last name, the whole name, email or mobile containing the term, ignoring case. A
 * phone number typed with spaces, dashes or a plus still finds the stored digits. In demo mode
 * (section 6: contacts shown as 'Hidden') only names are searched, so a search cannot confirm an
 * email or number the list hides.
 */
export function userSearchCondition(term: string, { contacts }: { contacts: boolean }): SQL | undefined {
  const pattern = containsPattern(term);
  const digits = term.replace(PHONE_SEPARATORS, '');
  const byName = [ilike(users.firstName, pattern), ilike(users.lastName, pattern), sql`(${users.firstName} || ' ' || ${users.lastName}) ilike ${pattern}`];
  if (!contacts) return or(...byName);
  return or(...byName, ilike(users.email, pattern), ilike(users.mobile, digits === '' ? pattern : containsPattern(digits)));
}
